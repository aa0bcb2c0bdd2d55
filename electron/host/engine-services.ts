/**
 * Local servers the host runs for its comparisons: the simulated model (started on first use, shared by
 * every comparison) and the fixture web page some tasks fetch. Both are closed when the host closes.
 * Engine modules load lazily, so listing history never pays for them.
 */
import type { StepEvent } from '../../shared/step-event.js';

export interface LocalServer {
  readonly url: string;
  close(): Promise<void>;
}

/** Starts a fresh per-run prompt-composition tracker (engine/tokens/prompt-composition.ts). */
export type CompositionTrackers = () => { observe(event: StepEvent): StepEvent };

export class EngineServices {
  private composition: Promise<CompositionTrackers> | null = null;
  private sim: Promise<LocalServer> | null = null;
  private fixture: Promise<LocalServer> | null = null;
  private closed = false;

  /** Base URL (ending in /v1) of the shared simulated model server. */
  async simUrl(): Promise<string> {
    this.assertOpen();
    this.sim ??= import('../sim/sim-server.js').then((m) => m.startSimServer());
    try {
      return (await this.sim).url;
    } catch (err) {
      this.sim = null;
      throw new Error(`The simulated model server could not start: ${(err as Error).message}`);
    }
  }

  /**
   * The prompt-composition counter: it loads the tokenizer (~0.7 s, ~70 MB) once, in the host, so no worker
   * carries it. Started when the composer is shown and awaited before a comparison's runs are released.
   */
  compositionTrackers(): Promise<CompositionTrackers> {
    this.composition ??= import('../engine/tokens/prompt-composition.js').then((m) => () => new m.CompositionTracker());
    this.composition.catch(() => (this.composition = null));
    return this.composition;
  }

  /** URL of the local fixture page. */
  async fixtureUrl(): Promise<string> {
    this.assertOpen();
    this.fixture ??= import('../tasks/fixture-server.js').then((m) => m.startFixtureServer());
    try {
      return (await this.fixture).url;
    } catch (err) {
      this.fixture = null;
      throw new Error(`The local test page server could not start: ${(err as Error).message}`);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const servers = [this.sim, this.fixture].filter((s): s is Promise<LocalServer> => s !== null);
    this.sim = this.fixture = null;
    await Promise.all(
      servers.map((s) =>
        s.then(
          (server) => server.close(),
          () => undefined,
        ),
      ),
    );
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('The host is shutting down; start the comparison again after it restarts.');
  }
}
