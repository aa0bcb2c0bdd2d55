/**
 * M3ToolEval's "Cryptobotanist's Plant DNA Sequencer" tools (code-act, MIT; see ../LICENSE-m3tooleval.md),
 * written anew over Python values: each function does what its Python original does, errors included.
 */
import { iterate, PyDict, PyError, PyTuple, typeName, type PyValue } from '../py-value.js';
import { pyMaxBy } from './common.js';
import type { M3Tool } from '../m3-tool.js';

function text(v: PyValue): string {
  if (typeof v !== 'string')
    throw new PyError('AttributeError', `'${typeName(v)}' object has no attribute 'translate'`);
  return v;
}

/** dict(Counter(dna_sequence)): each item (a character of a str) with its count, in order of first sight. */
export function countNucleotides(dnaSequence: PyValue): PyDict {
  const counts = new PyDict();
  for (const item of iterate(dnaSequence)) counts.set(item, ((counts.get(item) as bigint | undefined) ?? 0n) + 1n);
  return counts;
}

function translate(s: string, from: string, to: string): string {
  return [...s].map((ch) => (from.includes(ch) ? to[from.indexOf(ch)] : ch)).join('');
}

export const transcribeDnaToMrna = (dna: PyValue): string => translate(text(dna), 'ACGT', 'UGCA');
export const reverseTranscribeMrnaToDna = (mrna: PyValue): string => translate(text(mrna), 'UCAG', 'AGTC');

const CODONS: Readonly<Record<string, string>> = { AUG: 'Methionine', UUU: 'Phenylalanine', UUC: 'Phenylalanine' };

/** Codon by codon (a short last piece too); an unknown codon is "X"; joined with "-". */
export function translateMrnaToAminoAcid(mrna: PyValue): string {
  if (typeof mrna !== 'string') throw new PyError('TypeError', `object of type '${typeName(mrna)}' has no len()`);
  const chars = [...mrna];
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += 3) out.push(CODONS[chars.slice(i, i + 3).join('')] ?? 'X');
  return out.join('-');
}

/** (k1, v1, k2, v2, …) → the key with the largest value (the first such), as a (key, value) tuple. */
export function findMaxNucleotide(args: readonly PyValue[]): PyTuple {
  const counts = new PyDict();
  for (let i = 0; i + 1 < args.length; i += 2) counts.set(hashable(args[i]), args[i + 1]);
  if (counts.size === 0) throw new PyError('ValueError', 'max() arg is an empty sequence');
  const best = pyMaxBy(counts.entries, ([, v]) => v);
  return new PyTuple([best[0], best[1]]);
}

function hashable(v: PyValue): PyValue {
  if (Array.isArray(v) || v instanceof PyDict) throw new PyError('TypeError', `unhashable type: '${typeName(v)}'`);
  return v;
}

/** set(dna_sequence) ⊆ {A, C, G, T}. */
export function isValidDnaSequence(dna: PyValue): boolean {
  return iterate(dna).every((ch) => typeof ch === 'string' && 'ACGT'.includes(ch) && ch.length === 1);
}

export const DNA_TOOLS: readonly M3Tool[] = [
  {
    name: 'count_nucleotides',
    description: 'Counts the occurrences of each nucleotide in a DNA sequence. Arguments: dna_sequence (str)',
    params: [{ name: 'dna_sequence', type: 'str' }],
    returns: 'Record<string, number>',
    pythonReturns: 'dict',
    run: ([s]) => countNucleotides(s),
  },
  {
    name: 'transcribe_dna_to_mrna',
    description: 'Transcribes DNA sequence to mRNA. Arguments: dna_sequence (str)',
    params: [{ name: 'dna_sequence', type: 'str' }],
    returns: 'string',
    pythonReturns: 'str',
    run: ([s]) => transcribeDnaToMrna(s),
  },
  {
    name: 'translate_mrna_to_amino_acid',
    description: 'Translates mRNA sequence to a chain of amino acids. Arguments: mrna_sequence (str)',
    params: [{ name: 'mrna_sequence', type: 'str' }],
    returns: 'string',
    pythonReturns: 'str',
    run: ([s]) => translateMrnaToAminoAcid(s),
  },
  {
    name: 'find_max_nucleotide',
    description:
      'Return the nucleotide (str) with the maximum count (int). Arguments: nucleotide_counts in the form of (k1, v1, k2, v2, ..., kn, vn)',
    params: [{ name: 'args', type: 'any', variadic: true }],
    returns: '[string, number]',
    pythonReturns: '(str, int)',
    run: (args) => findMaxNucleotide(args),
  },
  {
    name: 'is_valid_dna_sequence',
    description: 'Checks if the DNA sequence is valid. Arguments: dna_sequence (str)',
    params: [{ name: 'dna_sequence', type: 'str' }],
    returns: 'boolean',
    pythonReturns: 'bool',
    run: ([s]) => isValidDnaSequence(s),
  },
  {
    name: 'reverse_transcribe_mrna_to_dna',
    description: 'Reverse transcribes mRNA sequence to DNA. Arguments: mrna_sequence (str)',
    params: [{ name: 'mrna_sequence', type: 'str' }],
    returns: 'string',
    pythonReturns: 'str',
    run: ([s]) => reverseTranscribeMrnaToDna(s),
  },
];
