/**
 * The simulated model's names, one description each (the composer's model field, the CLI help, /v1/models and
 * docs/simulated-model.md read these words). Each name is a personality of the same scripted policies, drawn
 * from what real models were observed doing; `sim` is the calibrated default.
 */
export interface SimModelDescription {
  /** What the personality does differently, in one line. */
  readonly about: string;
}

export const SIM_MODELS = {
  sim: {
    about: 'the calibrated default: trial 1 replays the documented real runs, later trials vary as those models did',
  },
  'sim-careful': {
    about:
      "looks before it acts: explores the folder, reads a found tool's describe() instead of guessing its result, " +
      'checks its counts before answering; more steps, right more often',
  },
  'sim-hasty': {
    about:
      'acts at once: calls everything in one step, guesses result shapes and skips checks, answers early; ' +
      'fewer steps, and some trials count wrong (an off-by-one split) or guess an argument name',
  },
} as const satisfies Record<string, SimModelDescription>;

export type SimModelId = keyof typeof SIM_MODELS;

export const SIM_MODEL_IDS = Object.keys(SIM_MODELS) as [SimModelId, ...SimModelId[]];

export function isSimModel(name: string): name is SimModelId {
  return Object.hasOwn(SIM_MODELS, name);
}

/** The personality a request's `model` asks for; any other name gets the default, as the server answers to any. */
export function simModelOf(name: string | undefined): SimModelId {
  return name !== undefined && isSimModel(name) ? name : 'sim';
}

/** Why `name` is no simulated model, in words that list the ones there are; null when it is one. */
export function simModelProblem(name: string): string | null {
  return isSimModel(name)
    ? null
    : `The simulated model has no model "${name}": it answers to ${SIM_MODEL_IDS.join(', ')} (see docs/simulated-model.md).`;
}
