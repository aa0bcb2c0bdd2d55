/** The CLI's variants flags: the comparison's model when the columns name their own. */
import { describe, expect, it } from 'vitest';
import { withColumnModel } from '../../../electron/cli/variants-option.js';
import { resolveProviderFlags } from '../../../electron/cli/provider-options.js';
import { matrixVariants } from '../../../shared/variants.js';

describe('withColumnModel', () => {
  it("lets --models name the model of a custom server, which has no default (the first column's)", () => {
    const flags: { provider: string; baseUrl: string; model?: string } = {
      provider: 'custom',
      baseUrl: 'http://127.0.0.1:8000/v1',
    };
    expect(() => resolveProviderFlags(flags)).toThrow(/--model/);
    const variants = matrixVariants(['qwen3', 'llama3'], ['react', 'code']);
    expect(resolveProviderFlags(withColumnModel(flags, variants)).model).toBe('qwen3');
  });

  it('keeps --model when given, and changes nothing without variants', () => {
    expect(withColumnModel({ model: 'm' }, [{ mode: 'react', model: 'x' }]).model).toBe('m');
    expect(withColumnModel({}, null)).toEqual({});
    expect(withColumnModel<{ model?: string }>({}, [{ mode: 'react' }]).model).toBeUndefined();
  });
});
