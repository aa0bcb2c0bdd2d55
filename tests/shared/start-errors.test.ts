import { describe, expect, it } from 'vitest';
import { fieldToFix, startErrorField, type StartField } from '../../shared/start-errors.js';

describe('start errors that name a field', () => {
  it('reads back the field the last sentence names', () => {
    for (const f of ['baseUrl', 'apiKey', 'model'] as StartField[])
      expect(startErrorField(`Something failed. Nothing was started. ${fieldToFix(f)}`)).toBe(f);
  });
  it('survives the prefix Electron adds to a rejected invoke', () => {
    expect(
      startErrorField(
        `Error invoking remote method 'comparison:start': Error: The server rejected the API key. ${fieldToFix('apiKey')}`,
      ),
    ).toBe('apiKey');
  });
  it('names no field when the sentence is missing, elsewhere or unknown', () => {
    expect(startErrorField('Choose at least one mode to run.')).toBeNull();
    expect(startErrorField(`${fieldToFix('apiKey')} And then more text.`)).toBeNull();
    expect(startErrorField('Field to fix: settings.')).toBeNull();
  });
});
