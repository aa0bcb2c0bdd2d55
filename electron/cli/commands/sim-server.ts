/** `parallax sim-server`: the simulated model as a standalone OpenAI-compatible server, until Ctrl+C. */
import type { Command } from 'commander';
import { SIM_FAULTS } from '../../../shared/run-spec.js';
import { say } from '../terminal.js';

interface SimFlags {
  port: string;
  host: string;
  fault?: string[];
}

function parsePort(text: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`--port must be a whole number from 0 to 65535 (0 picks a free port), got "${text}".`);
  }
  return port;
}

export function register(program: Command): void {
  program
    .command('sim-server')
    .description('serve the simulated model (offline, scripted, labelled "simulated") over the OpenAI chat API')
    .option('--port <n>', 'port to listen on (0 picks a free one)', '0')
    .option('--host <address>', 'address to bind', '127.0.0.1')
    .option('--fault <name...>', `inject faults into every request: ${SIM_FAULTS.join(', ')}`)
    .action(async (flags: SimFlags) => {
      const [{ parseFaults, TRIAL_HEADER }, { startSimServer }] = await Promise.all([
        import('../../sim/faults.js'),
        import('../../sim/sim-server.js'),
      ]);
      const sim = await startSimServer({
        port: parsePort(flags.port),
        host: flags.host,
        faults: parseFaults(flags.fault),
      });
      say(sim.url);
      say(
        `Point any OpenAI-compatible client at base URL ${sim.url} with model "sim" and any API key (simulated replies). Ctrl+C stops it.`,
      );
      say(
        `Send the header ${TRIAL_HEADER}: N to get trial N's behaviour (trial 1, the documented real run, when absent).`,
      );
      if (flags.fault?.length) say(`Injecting faults: ${flags.fault.join(', ')}`);
      await new Promise<void>((resolve) => {
        const stop = (): void => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          void sim.close().then(resolve);
        };
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
      say('Simulated model stopped.');
    });
}
