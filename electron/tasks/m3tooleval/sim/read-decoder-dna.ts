/**
 * The simulated model reading message-decoder and DNA-sequencer instructions: the quoted messages or sequences,
 * the shifts, which steps the words name (reverse, Caesar), and what is asked of the results (the shortest, the
 * one of a given length, the largest number, the longest valid sequence). Each reading is a plan (plan.ts).
 */
import { call, calc, lit, op, ref, spread, when, type Plan, type Step } from './plan.js';

const quoted = (text: string): string[] => [...text.matchAll(/'([^'\n]*)'/g)].map((m) => m[1]);
const listIn = (text: string): string[] | null => {
  const m = /\[((?:\s*'[^']*'\s*,?)+)\]/.exec(text);
  return m ? quoted(m[1]) : null;
};
const shiftsIn = (text: string): bigint[] => {
  const many = /shifts of ([\d, and]+?) respectively/i.exec(text);
  if (many) return [...many[1].matchAll(/\d+/g)].map((m) => BigInt(m[0]));
  const one = /shift of (\d+)/i.exec(text);
  return one ? [BigInt(one[1])] : [];
};

/** One message decoded: from hex, then reversed and Caesar-decoded in the order the words name them. */
function decodeSteps(prefix: string, hex: string, shift: bigint, text: string): { steps: Step[]; last: string } {
  const steps: Step[] = [call(`${prefix}text`, 'convert_hex_to_ascii', lit(hex))];
  let last = `${prefix}text`;
  const reverseAt = text.search(/revers/i);
  const caesarAt = text.search(/caesar/i);
  const order =
    reverseAt >= 0 && reverseAt < caesarAt
      ? ['reverse', 'caesar']
      : reverseAt >= 0
        ? ['caesar', 'reverse']
        : ['caesar'];
  for (const what of order) {
    const name = `${prefix}${what === 'reverse' ? 'reversed' : 'decoded'}`;
    steps.push(
      what === 'reverse' ? call(name, 'reverse_string', ref(last)) : call(name, 'caesar_decode', ref(last), lit(shift)),
    );
    last = name;
  }
  return { steps, last };
}

export function readDecoder(text: string): Plan | null {
  if (!/caesar/i.test(text) || !(/\bhex/i.test(text) || /'[0-9a-fA-F]+'/.test(text))) return null;
  const shifts = shiftsIn(text);
  const list = listIn(text);
  if (!list) {
    const hex = /'([0-9a-fA-F]+)'/.exec(text)?.[1];
    if (!hex || shifts.length === 0) return null;
    const { steps, last } = decodeSteps('', hex, shifts[0], text);
    return { steps, answer: ref(last) };
  }
  const decoded = list.map((hex, i) => decodeSteps(`m${i + 1}_`, hex, shifts[i] ?? shifts[0] ?? 0n, text));
  const steps = decoded.flatMap((d) => d.steps);
  const messages = op('list', ...decoded.map((d) => ref(d.last)));
  if (/numerical maximum|represent integers/i.test(text)) {
    decoded.forEach((d, i) => steps.push(calc(`n${i + 1}`, 'int', ref(d.last))));
    steps.push(spread(call('largest', 'maximum_value', op('list', ...decoded.map((_d, i) => ref(`n${i + 1}`))))));
    return { steps, answer: ref('largest') };
  }
  decoded.forEach((d, i) => steps.push(call(`len${i + 1}`, 'string_length', ref(d.last))));
  const lengths = op('list', ...decoded.map((_d, i) => ref(`len${i + 1}`)));
  const equal = /length equal to (\d+)/i.exec(text);
  if (equal) return { steps, answer: op('pickWhere', messages, lengths, lit(BigInt(equal[1]))) };
  if (/shortest/i.test(text)) {
    steps.push(spread(call('shortest', 'minimum_value', lengths)));
    return { steps, answer: ref('shortest') };
  }
  if (/longest/i.test(text)) {
    steps.push(spread(call('longest', 'maximum_value', lengths)));
    return { steps, answer: op('pickWhere', messages, lengths, ref('longest')) };
  }
  return null;
}

/** find_max_nucleotide over a count's keys and values, flattened as its description asks. */
function maxOf(counts: string, name: string): Step[] {
  return [calc(`${name}_args`, 'pairs', ref(counts)), spread(call(name, 'find_max_nucleotide', ref(`${name}_args`)))];
}

export function readDna(text: string): Plan | null {
  if (!/\b(DNA|mRNA)\b/.test(text)) return null;
  const seq = quoted(text)[0];
  const list = listIn(text);
  if (/most common nucleotide/i.test(text) && /repeated three times/i.test(text) && seq) {
    return {
      steps: [
        call('counts', 'count_nucleotides', lit(seq)),
        ...maxOf('counts', 'most'),
        calc('nucleotide', 'at', ref('most'), lit(0n)),
        calc('triple', 'repeat', ref('nucleotide'), lit(3n)),
        call('mrna', 'transcribe_dna_to_mrna', ref('triple')),
      ],
      answer: ref('mrna'),
    };
  }
  if (/check if the DNA sequence/i.test(text) && /otherwise/i.test(text) && seq) {
    const otherwise = /answer '([^']+)'/i.exec(text)?.[1] ?? 'Invalid DNA sequence';
    return {
      steps: [
        call('valid', 'is_valid_dna_sequence', lit(seq)),
        when(call('mrna', 'transcribe_dna_to_mrna', lit(seq)), ref('valid')),
        when(call('protein', 'translate_mrna_to_amino_acid', ref('mrna')), ref('valid')),
      ],
      answer: op('cond', ref('valid'), ref('protein'), lit(otherwise)),
    };
  }
  if (/reverse transcribe/i.test(text) && /maximum occurring/i.test(text) && seq) {
    return {
      steps: [
        call('dna', 'reverse_transcribe_mrna_to_dna', lit(seq)),
        call('counts', 'count_nucleotides', ref('dna')),
        ...maxOf('counts', 'most'),
      ],
      answer: op('at', ref('most'), lit(0n)),
    };
  }
  if (/reverse transcribe/i.test(text) && /count the nucleotides/i.test(text) && seq) {
    return {
      steps: [call('dna', 'reverse_transcribe_mrna_to_dna', lit(seq)), call('counts', 'count_nucleotides', ref('dna'))],
      answer: ref('counts'),
    };
  }
  if (/^Transcribe/i.test(text) && /translate/i.test(text) && seq) {
    const steps = [
      call('mrna', 'transcribe_dna_to_mrna', lit(seq)),
      call('protein', 'translate_mrna_to_amino_acid', ref('mrna')),
    ];
    if (/length of the amino acid sequence/i.test(text))
      return { steps, answer: op('len', op('split', ref('protein'), lit('-'))) };
    const amino = /check if '([^']+)' is in/i.exec(text)?.[1];
    if (amino) return { steps, answer: op('contains', ref('protein'), lit(amino)) };
    return null;
  }
  if (list && /longest valid/i.test(text)) {
    const steps = list.map((s, i) => call(`valid${i + 1}`, 'is_valid_dna_sequence', lit(s)));
    return { steps, answer: op('longestWhere', lit(list), op('list', ...list.map((_s, i) => ref(`valid${i + 1}`)))) };
  }
  if (list && /combine/i.test(text) && /most common/i.test(text)) {
    return {
      steps: [
        calc('combined', 'join', lit(list)),
        call('counts', 'count_nucleotides', ref('combined')),
        ...maxOf('counts', 'most'),
      ],
      answer: ref('most'),
    };
  }
  return null;
}
