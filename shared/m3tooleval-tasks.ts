/**
 * M3ToolEval's 82 tasks (xingyaoww/code-act, scripts/eval/m3tooleval/tasks/impl/, MIT licence, Copyright (c) 2024
 * Xingyao Wang; the notice is in electron/tasks/m3tooleval/LICENSE-m3tooleval.md), carried as data in the original's order: its name, the
 * instruction word for word, and the expected output as Python writes it (repr), which the task set reads back with
 * its literal reader. tests/electron/engine/tasks/m3tooleval/expected-outputs.test.ts recomputes every expected
 * output with the ported tools from the task's own figures.
 */
export interface M3TaskData {
  /** The original's task name, `<domain>/<task>`. */
  readonly name: string;
  readonly instruction: string;
  /** repr() of the expected output. */
  readonly expected: string;
}

/** The set's domains in the original's order: the id `m3tooleval:<id>` names, and the prefix of the original's names. */
export const M3_DOMAIN_INFO = [
  { id: 'message_decoder', title: 'Alien message decoder', original: 'message_decoder' },
  {
    id: 'dna_sequencer',
    title: "Cryptobotanist's plant DNA sequencer",
    original: 'cryptobotanists_plant_dna_sequencer',
  },
  { id: 'trade_calculator', title: 'Intergalactic trade calculator', original: 'trade_calculator' },
  { id: 'travel_itinerary_planning', title: 'Travel itinerary planning', original: 'travel_itinerary_planning' },
  { id: 'web_browsing', title: 'Web browsing (stored pages)', original: 'web_browsing' },
] as const;

export type M3DomainId = (typeof M3_DOMAIN_INFO)[number]['id'];

export const M3_SET_ID = 'm3tooleval';

/**
 * The lines the original's prompt puts after every instruction about the answer, kept in the task's text so that
 * every mode is asked for the answer the same way and the scoring reads it as the paper's harness does.
 */
export const M3_ANSWER_LINES =
  "When you are done, output the result using 'Answer: your answer'\n" +
  'Please ONLY output the answer (e.g., single number), without any other text.';

/** A task's card: its id (`m3tooleval/<domain>/<task>`), its domain, and its text as every mode receives it. */
export interface M3Card {
  readonly id: string;
  readonly name: string;
  readonly domain: M3DomainId;
  readonly title: string;
  readonly text: string;
}

function domainOf(name: string): M3DomainId {
  const prefix = name.split('/')[0];
  const domain = M3_DOMAIN_INFO.find((d) => d.original === prefix);
  if (!domain) throw new Error(`M3ToolEval task ${name} names no known domain.`);
  return domain.id;
}

/** "price_of_legendary_wand" → "Price of legendary wand". */
const titleOf = (task: string): string => task.charAt(0).toUpperCase() + task.slice(1).replace(/_/g, ' ');

export function m3Cards(): M3Card[] {
  return M3_TASK_DATA.map((t) => {
    const domain = domainOf(t.name);
    const task = t.name.split('/').slice(1).join('/');
    return {
      id: `${M3_SET_ID}/${domain}/${task}`,
      name: t.name,
      domain,
      title: titleOf(task),
      text: `${t.instruction.replace(/\s+$/, '')}\n${M3_ANSWER_LINES}`,
    };
  });
}

export const M3_TASK_DATA: readonly M3TaskData[] = [
  {
    name: 'message_decoder/full_alien_message_decoding',
    instruction:
      "Decode an alien message encoded as follows: first, it's encoded in ASCII; then, it's reversed; and finally, a Caesar cipher with a shift of 5 is applied. The message is '7a686b7a686d666d686b'.",
    expected: "'fchahcufcu'",
  },
  {
    name: 'message_decoder/shortest_caesar_decoded_message',
    instruction:
      "Given a list of hex-encoded strings, decode each one from hex to ASCII, reverse it, and then apply a Caesar cipher decode with a shift of 4. Find the length of the shortest decoded message. The list of hex strings is ['636261', '686766', '6365646362', '6867666865'].",
    expected: '3',
  },
  {
    name: 'message_decoder/longest_decoded_string',
    instruction:
      "Decode a list of messages each going through a series of transformations: first from hex to ASCII, then reversed, and finally a Caesar cipher decode with shifts of 2, 3, and 5 respectively. Find the longest message after decoding. The hex-encoded messages are ['4a656d', '4b6867', '4c696f'].",
    expected: '3',
  },
  {
    name: 'message_decoder/specific_decoded_character',
    instruction:
      "Given a hex-encoded string '576562546563686e6f6c6f6779', decode it to ASCII, reverse it, apply a Caesar cipher decode with a shift of 7.",
    expected: "'rzhehgavxMuxP'",
  },
  {
    name: 'message_decoder/hex_caesar_combined_decoding',
    instruction:
      "Decode a message that was first converted to hexadecimal, then encoded with a Caesar cipher with a shift of 2. The hex-encoded, Caesar-shifted message is '4d4f5252'.",
    expected: "'KMPP'",
  },
  {
    name: 'message_decoder/multi_step_decoding_challenge',
    instruction:
      "Decode a message that went through three steps: first, a Caesar cipher with a shift of 3; then reversed; and finally, encoded to hexadecimal. The final hex-encoded message is '726f77746e6153794d'.",
    expected: "'JvPxkqtlo'",
  },
  {
    name: 'message_decoder/length_based_decoding_puzzle',
    instruction:
      "Given three hex-encoded messages, decode each one using the Caesar cipher with a shift of 6. Find the message that has a length equal to 5 after decoding. The hex-encoded messages are ['646566', '6a6b6c6d', '68696a6b6c'].",
    expected: "'bcdef'",
  },
  {
    name: 'message_decoder/maximum_value_decoding',
    instruction:
      "Decode a list of hex-encoded messages using a Caesar cipher with a shift of 4, reverse them, and find the numerical maximum value of these decoded strings. Assume the decoded strings represent integers. The hex-encoded messages are ['313233', '343536', '373839'].",
    expected: '987',
  },
  {
    name: 'cryptobotanists_plant_dna_sequencer/find_most_common_nucleotide_and_transcribe',
    instruction:
      "Find the most common nucleotide in the DNA sequence 'AGCTAGCCGATGCA' and transcribe that nucleotide (repeated three times) to mRNA.",
    expected: "'UUU'",
  },
  {
    name: 'cryptobotanists_plant_dna_sequencer/validate_transcribe_translate',
    instruction:
      "Check if the DNA sequence 'AGCTTX' is valid, and if so, transcribe it to mRNA and translate that to an amino acid sequence. Otherwise, answer 'Invalid DNA sequence'.",
    expected: "'Invalid DNA sequence'",
  },
  {
    name: 'cryptobotanists_plant_dna_sequencer/reverse_transcribe_count_max_nucleotide',
    instruction:
      "For the mRNA sequence 'AUGCUUUUC', reverse transcribe it to DNA, count the nucleotides, and find the maximum occurring nucleotide. Answer the maximum occurring nucleotide, not the count.",
    expected: "'A'",
  },
  {
    name: 'cryptobotanists_plant_dna_sequencer/transcribe_translate_amino_acid_length',
    instruction:
      "Transcribe the DNA sequence 'AGCTAGCGTA' to mRNA, translate it to an amino acid sequence, and determine the length of the amino acid sequence.",
    expected: '4',
  },
  {
    name: 'cryptobotanists_plant_dna_sequencer/reverse_transcribe_palindrome_check',
    instruction: "Reverse transcribe the mRNA sequence 'AUGCGU' to DNA, and count the nucleotides in the DNA sequence.",
    expected: "{'T': 1, 'A': 2, 'C': 2, 'G': 1}",
  },
  {
    name: 'cryptobotanists_plant_dna_sequencer/validate_find_longest_valid_sequence',
    instruction:
      "Given the DNA sequences ['AGCTAG', 'XYZABC', 'GTCAGT'], check which are valid and find the longest valid DNA sequence.",
    expected: "'AGCTAG'",
  },
  {
    name: 'cryptobotanists_plant_dna_sequencer/transcribe_translate_find_amino_acid',
    instruction:
      "Transcribe the DNA sequence 'AGCTAGCGTA' to mRNA, translate it to an amino acid sequence, and check if 'Methionine' is in the amino acid sequence. Answer 'True' or 'False'.",
    expected: 'False',
  },
  {
    name: 'cryptobotanists_plant_dna_sequencer/find_most_common_nucleotide_combined_sequence',
    instruction:
      "Combine the DNA sequences ['AGCT', 'CCGA', 'TTAG'] and find the most common nucleotide in the combined sequence.",
    expected: "('A', 3)",
  },
  {
    name: 'trade_calculator/estimate_final_value',
    instruction: 'Estimate the final trade value for a price of 150 units with a tariff of 7.5 units.',
    expected: '161.25',
  },
  {
    name: 'trade_calculator/interstellar_trade_transaction',
    instruction:
      'Calculate the final trade value for an intergalactic trader who is exchanging 100 units of space ore. The base price per unit is 50 galactic credits, the conversion rate to local currency is 1.5, and the trade tariff rate is 8%. Provide the final trade value in local currency.',
    expected: '8100.0',
  },
  {
    name: 'trade_calculator/taxed_commodity_export',
    instruction:
      'An intergalactic trader is exporting 200 units of a rare mineral. The base price per unit is 120 galactic credits. The conversion rate today is 2.0 for converting galactic credits to the universal trade currency (UTC). The tariff rate for exporting this mineral is 5%. Calculate the total cost including tariff in UTC.',
    expected: '50400.0',
  },
  {
    name: 'trade_calculator/best_trade_route_selection',
    instruction:
      'An intergalactic trader is analyzing multiple trade routes to sell a cargo of 500 units of space spices. There are three routes available with different conversion rates and tariff rates as follows: Route 1: Conversion rate of 1.3 and tariff rate of 7%, Route 2: Conversion rate of 1.4 and tariff rate of 9%, Route 3: Conversion rate of 1.2 and tariff rate of 4%. Find the least final trade value after applying conversion and tariff and answer that value.',
    expected: '624.0',
  },
  {
    name: 'trade_calculator/most_profitable_conversion_rate',
    instruction:
      'A trader has access to different currency markets to convert 1000 units of a high-value liquid commodity. The conversion rates available are 2.5, 2.3, and 2.7. The commodity has a fixed base price of 300 galactic credits per unit. However, a fixed tariff of 10% applies in all markets. Determine the final trade value with the most profitable conversion rate. Answer that value.',
    expected: '891000.0',
  },
  {
    name: 'trade_calculator/bulk_trade_quantity_discount',
    instruction:
      'An intergalactic merchant is offering a bulk discount for a purchase of 2000 units or more of mechanized labor robots. The base price per unit is 1500 galactic credits. For purchases of 2000 units or more, a 5% discount is applied. The conversion rate is 1.8 and the tariff rate is 12%. Calculate the total cost after discount, conversion, and tariff for a trade of 2500 units.',
    expected: '7182000.0',
  },
  {
    name: 'trade_calculator/comparative_profit_analysis',
    instruction:
      'Analyze the profit margins for selling two different commodities in an intergalactic market. The first commodity has a base price of 100 credits per unit, a conversion rate of 1.6, a tariff rate of 6%, and a quantity of 300 units. The second commodity has a base price of 80 credits per unit, a conversion rate of 1.8, a tariff rate of 5%, and a quantity of 500 units. Determine the maximum final trade values among these commodities.',
    expected: '75600.0',
  },
  {
    name: 'trade_calculator/fluctuating_conversion_rates_impact',
    instruction:
      "Evaluate how fluctuating conversion rates impact the trade value of a commodity. The commodity has a base price of 200 credits per unit and a tariff rate of 7%. Assess the final trade values for quantities of 100, 150, and 200 units at conversion rates of 1.7, 1.5, and 1.6 respectively. Provide your answer as a list of three values, separated by commas. Example: 'Answer: [1000, 2000, 3000]'",
    expected: '[36380.0, 48150.0, 68480.0]',
  },
  {
    name: 'trade_calculator/optimal_trade_route_multiple_commodities',
    instruction:
      'A trader needs to select the most profitable trade route for three different commodities. Commodity 1: 150 units at 200 credits per unit, conversion rate 1.7, tariff rate 8%. Commodity 2: 250 units at 300 credits per unit, conversion rate 1.5, tariff rate 5%. Commodity 3: 100 units at 400 credits per unit, conversion rate 2.0, tariff rate 10%. Calculate the final trade value for each commodity and answer the highest value.',
    expected: '118125.0',
  },
  {
    name: 'trade_calculator/seasonal_price_fluctuation_impact',
    instruction:
      "Assess the impact of seasonal price fluctuations on trade value. A trader is dealing with a commodity whose base price varies seasonally: 200 credits in summer, 250 credits in autumn, 180 credits in winter. The quantity is 200 units, the conversion rate is 1.8, and the tariff rate is 7%. Calculate the final trade values for each season and list them in the order of summer, autumn, winter.Example: 'Answer: [1000, 2000, 3000]'",
    expected: '[77040.0, 96300.0, 69336.0]',
  },
  {
    name: 'trade_calculator/balancing_multiple_trade_offers',
    instruction:
      'A trader has to balance multiple trade offers to maximize profit. Offer 1: Sell 300 units at 250 credits per unit, conversion rate 1.6, tariff rate 6%. Offer 2: Buy 150 units at 220 credits per unit, conversion rate 1.5, tariff rate 4%. Determine the net profit or loss by subtracting the total cost of Offer 2 from the total revenue of Offer 1.',
    expected: '75720.0',
  },
  {
    name: 'trade_calculator/dynamic_pricing_strategy',
    instruction:
      "A trader is considering a dynamic pricing strategy for a commodity with a base price of 300 credits per unit. The strategy involves adjusting the price based on market demand: increase by 10% in high demand and decrease by 5% in low demand. Analyze three scenarios - high demand (120 units), normal demand (100 units), and low demand (80 units) with a constant conversion rate of 1.8 and a tariff rate of 6%. Calculate the final trade value for each scenario. Provide your answer as a list of three values, separated by commas.Example: 'Answer: [1000, 2000, 3000]'",
    expected: '[75556.8, 57240.0, 43502.4]',
  },
  {
    name: 'trade_calculator/quantity_tariff_tradeoff',
    instruction:
      'A trader faces a trade-off between selling more units at a higher tariff rate or fewer units at a lower tariff rate. Option 1: Sell 200 units at a tariff rate of 10%, Option 2: Sell 150 units at a tariff rate of 5%. The base price per unit is 400 credits, and the conversion rate is 1.7. Determine the final trade value for each option and identify the more profitable option.',
    expected: '149600.0',
  },
  {
    name: 'trade_calculator/optimizing_bulk_purchase_discounts',
    instruction:
      'A trader can benefit from bulk purchase discounts: 5% off for orders of 1000 units or more. Evaluate two commodities: Commodity A (base price 150 credits per unit) and Commodity B (base price 180 credits per unit). Assess the final trade value for purchasing 950 units and 1050 units of each commodity, with a conversion rate of 1.6 and a tariff rate of 7%.Determine the maximum final trade value among the four options.',
    expected: '307389.6',
  },
  {
    name: 'trade_calculator/currency_fluctuation_hedging',
    instruction:
      'A trader needs to hedge against currency fluctuations for an impending trade. The trade involves 500 units of a commodity at 250 credits per unit. Assess the final trade value under three different conversion rates - 1.5, 1.65, and 1.8, with a constant tariff rate of 8%. Identify the minimum final trade value among the three options.',
    expected: '202500.0',
  },
  {
    name: 'trade_calculator/variable_tariff_profit_maximization',
    instruction:
      'A trader is exploring profit maximization strategies with variable tariff rates. The commodity price is 300 credits per unit. Compare three selling strategies: 400 units with a 6% tariff, 350 units with a 4% tariff, and 450 units with a 7% tariff. The conversion rate is fixed at 1.7. Determine the maximum final trade value among the three options.',
    expected: '245565.0',
  },
  {
    name: 'trade_calculator/long_term_vs_short_term_trade_decisions',
    instruction:
      "Evaluate long-term versus short-term trade decisions. A trader can sell a commodity either now or wait a month for potentially better prices. Current scenario: sell 600 units at 200 credits per unit, conversion rate 1.8, tariff 5%. Potential future scenario: sell the same quantity at a 10% higher price, but face a 2% increase in tariff and a 0.2 decrease in conversion rate. Calculate and compare the final trade values for both scenarios. Provide your answer as a list of two values in order of [current, future scenario], separated by commas. Example: 'Answer: [1000, 2000]'",
    expected: '[226800.0, 225984.0]',
  },
  {
    name: 'travel_itinerary_planning/plan_trip_to_0',
    instruction:
      'You are at "E". Plan a trip to "A" on 2023-12-25, staying in a hotel with wifi and a pool for 5 nights. Give me the total budget for the trip.',
    expected: '1050',
  },
  {
    name: 'travel_itinerary_planning/cheapest_new_york_trip',
    instruction:
      'You are at "E". Find the cheapest flight and hotel combination for a trip to "B" on 2023-11-10 for 3 nights. Give me the total budget for the trip.',
    expected: '615',
  },
  {
    name: 'travel_itinerary_planning/luxury_tokyo_trip',
    instruction:
      'You are at "E". Plan a luxury trip to "C" on 2023-10-05, staying in the highest-rated hotel for 7 nights. Always choose the cheaper flight. Give me the total budget for the trip.',
    expected: '1370',
  },
  {
    name: 'travel_itinerary_planning/budget_trip_to_paris',
    instruction:
      'You are at "E". Plan a budget trip to "A" on 2023-12-25, staying in the cheapest available hotel for 4 nights. Always choose the cheaper flight. Give me the total budget for the trip.',
    expected: '650',
  },
  {
    name: 'travel_itinerary_planning/new_york_trip_with_specific_preferences',
    instruction:
      'You are at "E". Plan a trip to "B" on 2023-11-10, staying in a hotel with a gym but without a pool for 3 nights. Always choose the cheaper flight and hotel. Give me the total budget for the trip.',
    expected: '615',
  },
  {
    name: 'travel_itinerary_planning/london_business_trip',
    instruction:
      'You are at "E". Find the most economical flight and hotel for a business trip to "D" on 2023-08-15 for 4 nights, with only a wifi requirement. Give me the total budget for the trip.',
    expected: '920',
  },
  {
    name: 'travel_itinerary_planning/last_minute_tokyo_trip',
    instruction:
      'You are at "E". Organize a last-minute trip to "C" on 2023-12-01 for 3 nights in any available hotel. Always go with the cheaper hotel and flight. Give me the total budget for the trip.',
    expected: '865',
  },
  {
    name: 'travel_itinerary_planning/new_york_holiday_season',
    instruction:
      'You are at "E". Plan a holiday trip to "B" on 2023-12-15, preferring a hotel with a gym and pool, for 7 nights. Always go with the cheaper hotel and flight. Give me the total budget for the trip.',
    expected: '1480',
  },
  {
    name: 'travel_itinerary_planning/multi_city_business_trip',
    instruction:
      'You are at "E". Plan a multi-city business trip: first to "B" on 2023-11-10 for 2 nights, then to "C" on 2023-11-13 for 3 nights. Choose hotels with wifi. Always go with the cheaper hotel and flight. Give me the total budget for the trip.',
    expected: '1050',
  },
  {
    name: 'travel_itinerary_planning/leisure_multi_city_trip',
    instruction:
      'You are at "E". Plan a leisure multi-city trip: first to "A" on 2023-12-25 for 3 nights, then to "D" on 2023-12-28 for 2 nights. No specific hotel preferences. Always go with the cheaper hotel and flight. Give me the total budget for the trip.',
    expected: '1110',
  },
  {
    name: 'travel_itinerary_planning/three_city_european_tour',
    instruction:
      'You are at "E". Plan a three-city European tour starting from "E" to "A" on 2023-12-25 (3 nights), then going to "D" on 2023-12-29 (4 nights), and finally to "C" on 2024-01-02 (3 nights). Choose hotels with wifi in each city. Always go with the cheaper flight and hotel. Give me the total budget for the trip.',
    expected: '2195',
  },
  {
    name: 'travel_itinerary_planning/adventure_trip',
    instruction:
      'Plan an adventure trip starting from "E" to "C" on 2023-12-01 (2 nights), then going to "B" on 2023-12-03 (3 nights), and finally to "D" on 2023-12-06 (2 nights). In "C", prefer a hotel with a pool; in "B", any hotel; in "D", a hotel with a gym. Always go with the cheaper flight and hotel. Give me the total budget for the trip.',
    expected: '2200',
  },
  {
    name: 'travel_itinerary_planning/cultural_exploration_tour',
    instruction:
      'Plan a cultural exploration tour starting from "E" to "A" on 2023-12-25 (4 nights), then going to "B" on 2023-12-29 (2 nights), and finally to "D" on 2024-01-01 (3 nights). Choose hotels with wifi in each city. In "D", prefer a hotel with a high rating. Always go with the cheaper flight. Give me the total budget for the trip.',
    expected: '2305',
  },
  {
    name: 'travel_itinerary_planning/leisure_and_business_combo',
    instruction:
      'Plan a combination of leisure and business trip starting from "E" to "D" on 2023-08-15 (3 nights) for business, then going to "A" on 2023-08-18 (2 nights) for leisure, and finally to "C" on 2023-08-20 (2 nights) for business. For business stays, prefer hotels with wifi and gym; for leisure, prefer hotels with a pool. Always go with the cheaper flight and hotel. Give me the total budget for the trip.',
    expected: '1851',
  },
  {
    name: 'travel_itinerary_planning/grand_tour_vacation',
    instruction:
      'Plan a grand tour vacation starting from "E" to "C" on 2023-12-01 (2 nights), then to "D" on 2023-12-03 (3 nights), followed by a visit to "B" on 2023-12-06 (2 nights), and finally to "E" on 2023-12-08 (3 nights). Choose hotels with a high rating in each city. Always go with the cheaper flight. Give me the total budget for the trip.',
    expected: '3295',
  },
  {
    name: 'web_browsing/price_of_legendary_wand',
    instruction: "Find the current price of Legendary Wand.\nAnswer in the format of 'xx.xx' (e.g., 12.34).\n",
    expected: '68.71',
  },
  {
    name: 'web_browsing/price_of_legendary_potion',
    instruction: "Find the current price of Legendary Potion.\nAnswer in the format of 'xx.xx' (e.g., 12.34).\n",
    expected: '82.93',
  },
  {
    name: 'web_browsing/price_of_legendary_spellbook',
    instruction: "Find the current price of Legendary Spellbook.\nAnswer in the format of 'xx.xx' (e.g., 12.34).\n",
    expected: '181.45',
  },
  {
    name: 'web_browsing/price_of_legendary_crystal_ball',
    instruction: "Find the current price of Legendary Crystal Ball.\nAnswer in the format of 'xx.xx' (e.g., 12.34).\n",
    expected: '130.84',
  },
  {
    name: 'web_browsing/email_of_allison_hill',
    instruction: "Find the email of Allison Hill.\nAnswer in the format of 'xxx@xxx.xxx'\n",
    expected: "'allison.hill@taylor.net'",
  },
  {
    name: 'web_browsing/email_of_meredith_barnes',
    instruction: "Find the email of Meredith Barnes.\nAnswer in the format of 'xxx@xxx.xxx'\n",
    expected: "'meredith.barnes@lawrence-pacheco.com'",
  },
  {
    name: 'web_browsing/email_of_kimberly_dudley',
    instruction: "Find the email of Kimberly Dudley.\nAnswer in the format of 'xxx@xxx.xxx'\n",
    expected: "'kimberly.dudley@miller-carter.org'",
  },
  {
    name: 'web_browsing/email_of_henry_santiago',
    instruction: "Find the email of Henry Santiago.\nAnswer in the format of 'xxx@xxx.xxx'\n",
    expected: "'henry.santiago@zuniga.com'",
  },
  {
    name: 'web_browsing/department_of_allison_hill',
    instruction: "Find the department of Allison Hill.\nAnswer in the format of 'xxx'\n",
    expected: "'Engineering'",
  },
  {
    name: 'web_browsing/department_of_meredith_barnes',
    instruction: "Find the department of Meredith Barnes.\nAnswer in the format of 'xxx'\n",
    expected: "'Engineering'",
  },
  {
    name: 'web_browsing/department_of_kimberly_dudley',
    instruction: "Find the department of Kimberly Dudley.\nAnswer in the format of 'xxx'\n",
    expected: "'Engineering'",
  },
  {
    name: 'web_browsing/department_of_henry_santiago',
    instruction: "Find the department of Henry Santiago.\nAnswer in the format of 'xxx'\n",
    expected: "'Marketing'",
  },
  {
    name: 'web_browsing/phone_number_of_allison_hill',
    instruction: 'Find the phone number of Allison Hill.\nAnswer in the same format as displayed in the webpage.\n',
    expected: "'296-500-1338'",
  },
  {
    name: 'web_browsing/phone_number_of_meredith_barnes',
    instruction: 'Find the phone number of Meredith Barnes.\nAnswer in the same format as displayed in the webpage.\n',
    expected: "'001-626-254-2351x16155'",
  },
  {
    name: 'web_browsing/phone_number_of_kimberly_dudley',
    instruction: 'Find the phone number of Kimberly Dudley.\nAnswer in the same format as displayed in the webpage.\n',
    expected: "'(993)710-3413x164'",
  },
  {
    name: 'web_browsing/phone_number_of_henry_santiago',
    instruction: 'Find the phone number of Henry Santiago.\nAnswer in the same format as displayed in the webpage.\n',
    expected: "'+1-232-576-4835'",
  },
  {
    name: 'web_browsing/expertise_of_allison_hill',
    instruction:
      'Find the expertise of Allison Hill.\nAnswer in the same format as displayed in the webpage (e.g., A/B).\n',
    expected: "'Wand/Spellbook'",
  },
  {
    name: 'web_browsing/expertise_of_meredith_barnes',
    instruction:
      'Find the expertise of Meredith Barnes.\nAnswer in the same format as displayed in the webpage (e.g., A/B).\n',
    expected: "'Spellbook/Wand'",
  },
  {
    name: 'web_browsing/expertise_of_kimberly_dudley',
    instruction:
      'Find the expertise of Kimberly Dudley.\nAnswer in the same format as displayed in the webpage (e.g., A/B).\n',
    expected: "'Potion/Wand'",
  },
  {
    name: 'web_browsing/expertise_of_henry_santiago',
    instruction:
      'Find the expertise of Henry Santiago.\nAnswer in the same format as displayed in the webpage (e.g., A/B).\n',
    expected: "'Wand/Spellbook'",
  },
  {
    name: 'web_browsing/total_price_of_selected_items_0',
    instruction:
      "Find the total price of [Legendary Wand, Enchanted Potion, Magical Spellbook].\nAnswer in the format of 'xx.xx' (e.g., 12.34).\n",
    expected: '264.38',
  },
  {
    name: 'web_browsing/total_price_of_selected_items_1',
    instruction:
      "Find the total price of [Mystical Crystal Ball, Rare Crystal Ball, Magical Spellbook].\nAnswer in the format of 'xx.xx' (e.g., 12.34).\n",
    expected: '327.5',
  },
  {
    name: 'web_browsing/total_price_of_selected_items_2',
    instruction:
      "Find the total price of [Ancient Wand, Mystical Wand, Enchanted Potion].\nAnswer in the format of 'xx.xx' (e.g., 12.34).\n",
    expected: '380.41999999999996',
  },
  {
    name: 'web_browsing/total_price_of_selected_items_3',
    instruction:
      "Find the total price of [Mystical Crystal Ball, Rare Crystal Ball, Magical Spellbook, Mystical Potion].\nAnswer in the format of 'xx.xx' (e.g., 12.34).\n",
    expected: '468.86',
  },
  {
    name: 'web_browsing/total_price_of_selected_items_after_discount_0',
    instruction:
      "Find the total price of [Legendary Wand, Enchanted Potion, Magical Spellbook] after applying a 10% off discount on the total price.\nAnswer in the format of 'xx.xx' (e.g., 12.34).\n",
    expected: '237.942',
  },
  {
    name: 'web_browsing/total_price_of_selected_items_after_discount_1',
    instruction:
      "Find the total price of [Mystical Crystal Ball, Magical Spellbook] after applying a 10% off discount on the total price.\nAnswer in the format of 'xx.xx' (e.g., 12.34).\n",
    expected: '228.15900000000002',
  },
  {
    name: 'web_browsing/total_price_of_selected_items_after_discount_2',
    instruction:
      "Find the total price of [Ancient Wand, Enchanted Potion] after applying a 10% off discount on the total price.\nAnswer in the format of 'xx.xx' (e.g., 12.34).\n",
    expected: '248.922',
  },
  {
    name: 'web_browsing/total_price_of_selected_items_after_discount_3',
    instruction:
      "Find the total price of [Ancient Crystal Ball, Rare Wand] after applying a 10% off discount on the total price.\nAnswer in the format of 'xx.xx' (e.g., 12.34).\n",
    expected: '203.09400000000002',
  },
  {
    name: 'web_browsing/people_in_sales',
    instruction: "How many people are in the Sales Department?\nAnswer in the format of 'xx' (e.g., 9).\n",
    expected: '4',
  },
  {
    name: 'web_browsing/people_in_customer_support',
    instruction: "How many people are in the Customer Support Department?\nAnswer in the format of 'xx' (e.g., 9).\n",
    expected: '6',
  },
  {
    name: 'web_browsing/match_phone_number_to_person_thomas_ramos',
    instruction: "Which person's phone number is 432-867-7360?\nAnswer the person's name (e.g., John Smith).\n",
    expected: "'Thomas Ramos'",
  },
  {
    name: 'web_browsing/match_phone_number_to_person_james_house',
    instruction:
      "Which person's phone number is +1-972-434-3098x05009?\nAnswer the person's name (e.g., John Smith).\n",
    expected: "'James House'",
  },
  {
    name: 'web_browsing/match_phone_number_to_person_jordan_york',
    instruction: "Which person's phone number is (719)639-9091x6998?\nAnswer the person's name (e.g., John Smith).\n",
    expected: "'Jordan York'",
  },
  {
    name: 'web_browsing/match_phone_number_to_person_mike_allen',
    instruction: "Which person's phone number is 310-579-9118x38425?\nAnswer the person's name (e.g., John Smith).\n",
    expected: "'Mike Allen'",
  },
];
