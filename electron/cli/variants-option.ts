/**
 * `--variants FILE|JSON` and `--models a,b` for `compare` (and a suite's columns): the columns of a comparison
 * (shared/variants.ts). `--models` with `--modes` is the full matrix, models as rows.
 */
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { anchorAgentPaths } from './agent-paths.js';
import { isModeId, MODE_IDS, type ModeId } from '../../shared/run-spec.js';
import { matrixVariants, parseVariants, type VariantInput } from '../../shared/variants.js';

export interface VariantsFlags {
  readonly variants?: string;
  readonly models?: string;
  readonly modes: string;
}

const EXAMPLE = '\'[{"mode":"code","settings":{"returnTypes":false}},{"mode":"code"}]\'';

/** The text of `--variants`: inline JSON (it starts with `[`), else the file it names. */
export async function variantsText(value: string): Promise<string> {
  if (value.trim().startsWith('[')) return value;
  const path = resolve(value);
  return readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new Error(
      error.code === 'ENOENT'
        ? `--variants: no file at ${path}. Give a .json file with an array of columns, or the JSON itself, e.g. ${EXAMPLE}.`
        : `--variants: cannot read ${path}: ${error.message}`,
    );
  });
}

/**
 * The columns the flags ask for, checked (errors name the column and the field); null for a plain comparison
 * of `--modes`. `modesGiven`: the user typed --modes (it has a default), which --variants does not take.
 */
export async function readVariantsFlags(flags: VariantsFlags, modesGiven: boolean): Promise<VariantInput[] | null> {
  if (flags.variants !== undefined && flags.models !== undefined) {
    throw new Error(
      'Give either --variants (the columns) or --models with --modes (every model × every mode), not both.',
    );
  }
  if (flags.variants !== undefined) {
    if (modesGiven)
      throw new Error(
        "--variants names each column's mode: leave --modes out, or use --models a,b --modes x,y for a matrix.",
      );
    try {
      // Scripts named in an agent column are found beside the variants file (inline JSON: the current folder).
      const dir = flags.variants.trim().startsWith('[') ? process.cwd() : dirname(resolve(flags.variants));
      return anchorAgentPaths(parseVariants(await variantsText(flags.variants)), dir);
    } catch (err) {
      throw new Error(`--variants: ${(err as Error).message}`, { cause: err });
    }
  }
  if (flags.models === undefined) return null;
  const models = flags.models
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean);
  if (models.length === 0) throw new Error('--models needs at least one model name, e.g. --models sim,sim-careful.');
  if (new Set(models).size !== models.length)
    throw new Error(`--models lists a model twice (${flags.models}); name each once.`);
  const modes = flags.modes
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean);
  const unknown = modes.find((m) => !isModeId(m));
  if (unknown !== undefined || modes.length === 0)
    throw new Error(
      `--modes: ${unknown === undefined ? 'name at least one mode' : `unknown mode "${unknown}"`}. The modes are: ${MODE_IDS.join(', ')}.`,
    );
  return parseVariants(matrixVariants(models, modes as ModeId[]));
}

/**
 * The provider flags with the comparison's model filled in when variants name their own and --model is absent:
 * the first column's model (a custom server has no default model to fall back on).
 */
export function withColumnModel<
  F extends { readonly model?: string; readonly provider?: string; readonly baseUrl?: string },
>(flags: F, variants: readonly VariantInput[] | null): F {
  // The simulated model has its default (sim); a column's model is then checked as that column's, by name.
  const simulated = !flags.baseUrl && (flags.provider === undefined || flags.provider === 'simulated');
  return variants && flags.model === undefined && !simulated
    ? { ...flags, model: variants.find((v) => v.model !== undefined)?.model }
    : flags;
}
