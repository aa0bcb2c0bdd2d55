/** One `parallax serve` child, one Chromium page on it, and the test's own socket to the host. */
import { openPage, startServe, type Driven, type Served } from './harness.js';
import { connectHost, type HostClient } from './host-client.js';

export interface AppSession {
  readonly served: Served;
  readonly driven: Driven;
  readonly host: HostClient;
}

export async function startAppSession(): Promise<AppSession> {
  const served = await startServe();
  const driven = await openPage(served.url);
  const host = await connectHost(served.url);
  await driven.page.waitForSelector('[data-testid=connection-status]:has-text("Web host")');
  return { served, driven, host };
}

/** Stops whatever was started, even when start-up failed half-way. */
export async function stopAppSession(session: Partial<AppSession>): Promise<void> {
  session.host?.close();
  await session.driven?.close();
  await session.served?.stop();
}
