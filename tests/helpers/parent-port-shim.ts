/**
 * Loaded before a worker in the utility-launcher host-death test: gives the process a `parentPort` shaped
 * like Electron's (postMessage, on('message', {data})) over Node's IPC, and nothing else — no disconnect
 * event reaches the worker, as under Electron.
 */
const port = {
  postMessage(message: unknown): void {
    process.send?.(message);
  },
  on(_event: 'message', listener: (e: { data: unknown }) => void): void {
    process.on('message', (data) => listener({ data }));
  },
};
(process as unknown as { parentPort: typeof port }).parentPort = port;
