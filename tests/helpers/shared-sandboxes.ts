/**
 * For test files that call runEngine many times and test what the runs send and answer, not how a run gets its
 * sandbox: every run of the file runs its programs on one Pyodide child (and, where asked, one QuickJS thread per
 * memory limit), as the programs of one run do. Each program still starts fresh (codeState 'fresh'; py-fresh.ts
 * for Python), so what the runs do is the same; starting a sandbox per run (Python's load above all, seconds
 * each) was most of such a file's time. That a run takes a sandbox of its own is warm-up.test.ts's to show.
 *
 * In the test file, before its imports (vi.mock is hoisted; the factory loads this module itself):
 *   vi.mock('<…>/electron/engine/sandbox/python/py-sandbox.js', async (original) =>
 *     (await import('<…>/tests/helpers/shared-sandboxes.js')).onePyChild(await original()));
 * and `closeSharedSandboxes()` in its afterAll.
 */
type PyModule = typeof import('../../electron/engine/sandbox/python/py-sandbox.js');
type JsModule = typeof import('../../electron/engine/sandbox/sandbox.js');

const closers: (() => void)[] = [];

/** `made`, kept for the next run: the dispose that ends a run leaves it be until closeSharedSandboxes(). */
function keep<T extends { dispose(): void }>(made: T): T {
  closers.push(made.dispose.bind(made));
  made.dispose = () => undefined;
  return made;
}

/** py-sandbox.js with a PySandbox whose every instance is the file's one child. */
export function onePyChild(real: PyModule): PyModule {
  let one: InstanceType<PyModule['PySandbox']> | null = null;
  class OneChild extends real.PySandbox {
    constructor() {
      super();
      return (one ??= keep(new real.PySandbox())) as OneChild;
    }
  }
  return { ...real, PySandbox: OneChild };
}

/** sandbox.js with a Sandbox whose every instance for one memory limit is the file's one thread. */
export function oneJsThread(real: JsModule): JsModule {
  const threads = new Map<number | undefined, InstanceType<JsModule['Sandbox']>>();
  class OneThread extends real.Sandbox {
    constructor(options: { memoryMb?: number } = {}) {
      super(options);
      if (!threads.has(options.memoryMb)) threads.set(options.memoryMb, keep(new real.Sandbox(options)));
      return threads.get(options.memoryMb) as OneThread;
    }
  }
  return { ...real, Sandbox: OneThread };
}

/** Ends the shared sandboxes (the file's afterAll). */
export function closeSharedSandboxes(): void {
  for (const close of closers.splice(0)) close();
}
