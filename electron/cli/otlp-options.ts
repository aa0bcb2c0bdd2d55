/**
 * `--otlp-endpoint URL [--otlp-header name=value …]` of `parallax compare` and `parallax report`: after the
 * comparison is stored, its trace goes to an OTLP HTTP endpoint. The flags are checked before anything runs;
 * the sender (and the OpenTelemetry packages) load only when there is something to send.
 */
import type { Command } from 'commander';
import type { StoredComparison } from '../../shared/ipc-contract.js';
import { otlpHeaders, otlpTracesUrl, type OtlpTarget } from '../host/otlp-target.js';
import { warn } from './terminal.js';

export interface OtlpFlags {
  otlpEndpoint?: string;
  otlpHeader?: string[];
}

export function addOtlpOptions(cmd: Command): Command {
  return cmd
    .option(
      '--otlp-endpoint <url>',
      'send the comparison as an OpenTelemetry trace (GenAI spans, OTLP/JSON over HTTP) to this endpoint, e.g. http://127.0.0.1:4318',
    )
    .option(
      '--otlp-header <name=value...>',
      'a header for the OTLP endpoint (repeatable), e.g. "Authorization=Basic …"; never printed',
    );
}

/** The target the flags name, checked now so a bad URL fails before the comparison runs; null without --otlp-endpoint. */
export function otlpTargetOf(flags: OtlpFlags): OtlpTarget | null {
  if (flags.otlpEndpoint === undefined) {
    if (flags.otlpHeader?.length)
      throw new Error('--otlp-header needs --otlp-endpoint URL: the endpoint the headers are for.');
    return null;
  }
  otlpTracesUrl(flags.otlpEndpoint);
  return { endpoint: flags.otlpEndpoint, headers: otlpHeaders(flags.otlpHeader ?? []) };
}

/** Sends and says so on stderr; a failure sets exit code 1 and says how to send again (the comparison stays stored). */
export async function sendToOtlp(stored: StoredComparison, target: OtlpTarget): Promise<boolean> {
  const { sendOtlp } = await import('../host/otlp-export.js');
  try {
    const sent = await sendOtlp(stored, target);
    warn(
      `Sent comparison ${stored.meta.id} to ${sent.url}: ${sent.spans} spans, ${sent.bytes} bytes (HTTP ${sent.status}).`,
    );
    if (sent.rejected) warn(`warning: ${sent.rejected}`);
    return true;
  } catch (err) {
    warn(`parallax: ${err instanceof Error ? err.message : String(err)}`);
    warn(`The comparison is stored; send it again with \`parallax report ${stored.meta.id} --otlp-endpoint URL\`.`);
    process.exitCode = 1;
    return false;
  }
}
