/**
 * M3ToolEval's stored web pages (web_browsing/web_pages.jsonl of xingyaoww/code-act, MIT licence, Copyright (c)
 * 2024 Xingyao Wang; the notice is in ../LICENSE-m3tooleval.md), carried as data: each page by its name, its text
 * unchanged.
 */
export const WEB_PAGES: readonly { readonly name: string; readonly content: string }[] = [
  {
    name: '/',
    content:
      "Welcome to MagicWand Co.!\nDive into a world where magic meets reality. We specialize in crafting the finest magical artifacts.\n- About Us [Clickable '/about']\n- Our Products [Clickable '/products']\n- Blog [Clickable '/blog']\n- Contact Us [Clickable '/contact']\n- Meet Our Team [Clickable '/team']\nDiscover the magic today!",
  },
  {
    name: '/about',
    content:
      "About MagicWand Co.\nOur journey began over a century ago, in a small enchanted forest. Today, we're leaders in the magical realm.\nMeet Our Team [Clickable '/team']\nExplore Our Products [Clickable '/products']\n- CEO: Mr. Gandalf [Clickable '/about/team/ceo']\n- Head of Engineering: Ms. Hermione [Clickable '/about/team/head_engineering']\n- Chief Potion Master: Dr. Snape [Clickable '/about/team/chief_potion_master']\nOur mission is to bring magic into every household.",
  },
  {
    name: '/contact',
    content:
      "Contact Us at MagicWand Co.\nWe're here to answer all your magical inquiries. Whether you need help with a product or want to learn more about our offerings, reach out to us!\nEmail: contact@magicwand.co\nPhone: +1-800-MAGICWAND\nFollow us on WitcherGram @MagicWandCo",
  },
  {
    name: '/blog',
    content:
      "Our Magical Blog\nStay updated with the latest trends in the wizarding world. Our experts share insights, tips, and magical stories.\n- Latest Potions [Clickable '/blog/potions']\n- Wand Maintenance Tips [Clickable '/blog/wand-maintenance']\nJoin our community of magic enthusiasts!",
  },
  {
    name: '/blog/potions',
    content:
      'Potions Blog\nFrom healing elixirs to love potions, our potion masters cover it all. Discover the secrets behind powerful concoctions and brews.\nFeatured Post: The Art of Brewing Invisibility Potions\nUpcoming Event: Potion-Making Workshop - Enroll Now!',
  },
  {
    name: '/blog/wand_maintenance',
    content:
      'Wand Maintenance Blog\nYour wand is your most loyal companion. Learn how to care for it and enhance its magical abilities.\nRecent Article: 5 Signs Your Wand Needs Care\nExpert Tips: Aligning Your Wand with Your Magical Energy',
  },
  {
    name: '/about/team/ceo',
    content:
      "Mr. Gandalf - CEO\nWith decades of experience in the magical realm, Mr. Gandalf is a visionary leader. He's guided MagicWand Co. to new heights.\nEmail: gandalf.ceo@magicwand.co\nQuote: 'Magic is not just in wands, it's within us.'",
  },
  {
    name: '/about/team/head_engineering',
    content:
      'Ms. Hermione - Head of Engineering\nMs. Hermione is at the forefront of magical technology. Her innovations have revolutionized how we interact with magic.\nEmail: hermione.engineering@magicwand.co\nAchievements: Creator of the Self-Replenishing Spellbook\nInterests: Combining ancient spells with modern tech',
  },
  {
    name: '/about/team/chief_potion_master',
    content:
      "Dr. Snape - Chief Potion Master\nA master of potions, Dr. Snape's expertise lies in creating the most effective and intricate brews.\nEmail: snape.potions@magicwand.co\nFamous Creation: The Everlasting Elixir\nPhilosophy: 'In every potion, there is a story.'",
  },
  {
    name: '/team/engineering/allison_hill',
    content:
      'Allison Hill of Engineering Department\nExpertise: Wand/Spellbook\nEmail: allison.hill@taylor.net\nPhone: 296-500-1338',
  },
  {
    name: '/team/engineering/meredith_barnes',
    content:
      'Meredith Barnes of Engineering Department\nExpertise: Spellbook/Wand\nEmail: meredith.barnes@lawrence-pacheco.com\nPhone: 001-626-254-2351x16155',
  },
  {
    name: '/team/engineering/kimberly_dudley',
    content:
      'Kimberly Dudley of Engineering Department\nExpertise: Potion/Wand\nEmail: kimberly.dudley@miller-carter.org\nPhone: (993)710-3413x164',
  },
  {
    name: '/team/marketing/henry_santiago',
    content:
      'Henry Santiago of Marketing Department\nExpertise: Wand/Spellbook\nEmail: henry.santiago@zuniga.com\nPhone: +1-232-576-4835',
  },
  {
    name: '/team/marketing/renee_morales',
    content:
      'Renee Morales of Marketing Department\nExpertise: Crystal Ball/Wand\nEmail: renee.morales@clark.com\nPhone: 676.872.4238',
  },
  {
    name: '/team/marketing/jennifer_robinson',
    content:
      'Jennifer Robinson of Marketing Department\nExpertise: Wand/Crystal Ball\nEmail: jennifer.robinson@hicks.com\nPhone: 922-669-1669',
  },
  {
    name: '/team/sales/shannon_smith',
    content:
      'Shannon Smith of Sales Department\nExpertise: Potion/Spellbook\nEmail: shannon.smith@wilson.com\nPhone: 346-627-0482',
  },
  {
    name: '/team/sales/katie_gonzalez',
    content:
      'Katie Gonzalez of Sales Department\nExpertise: Wand/Spellbook\nEmail: katie.gonzalez@farmer-ryan.net\nPhone: 2955701543',
  },
  {
    name: '/team/sales/theresa_miller',
    content:
      'Theresa Miller of Sales Department\nExpertise: Potion/Spellbook\nEmail: theresa.miller@cabrera-spence.net\nPhone: 001-822-778-2489x63834',
  },
  {
    name: '/team/sales/joseph_martinez',
    content:
      'Joseph Martinez of Sales Department\nExpertise: Crystal Ball/Wand\nEmail: joseph.martinez@brown.org\nPhone: +1-239-730-1031',
  },
  {
    name: '/team/customer_support/david_caldwell',
    content:
      'David Caldwell of Customer Support Department\nExpertise: Spellbook/Wand\nEmail: david.caldwell@ryan.org\nPhone: 001-773-876-3116',
  },
  {
    name: '/team/customer_support/scott_brown',
    content:
      'Scott Brown of Customer Support Department\nExpertise: Potion/Spellbook\nEmail: scott.brown@joyce.com\nPhone: 633-938-7262',
  },
  {
    name: '/team/customer_support/thomas_ramos',
    content:
      'Thomas Ramos of Customer Support Department\nExpertise: Crystal Ball/Potion\nEmail: thomas.ramos@garcia.com\nPhone: 432-867-7360',
  },
  {
    name: '/team/customer_support/james_house',
    content:
      'James House of Customer Support Department\nExpertise: Spellbook/Wand\nEmail: james.house@mitchell-horton.net\nPhone: +1-972-434-3098x05009',
  },
  {
    name: '/team/customer_support/jordan_york',
    content:
      'Jordan York of Customer Support Department\nExpertise: Potion/Crystal Ball\nEmail: jordan.york@larson.com\nPhone: (719)639-9091x6998',
  },
  {
    name: '/team/customer_support/mike_allen',
    content:
      'Mike Allen of Customer Support Department\nExpertise: Wand/Crystal Ball\nEmail: mike.allen@anderson-brewer.info\nPhone: 310-579-9118x38425',
  },
  {
    name: '/team/engineering',
    content:
      "Engineering Team:\n- /team/engineering/allison_hill [Clickable '/team/engineering/allison_hill']\n- /team/engineering/meredith_barnes [Clickable '/team/engineering/meredith_barnes']\n- /team/engineering/kimberly_dudley [Clickable '/team/engineering/kimberly_dudley']\n",
  },
  {
    name: '/team/marketing',
    content:
      "Marketing Team:\n- /team/marketing/henry_santiago [Clickable '/team/marketing/henry_santiago']\n- /team/marketing/renee_morales [Clickable '/team/marketing/renee_morales']\n- /team/marketing/jennifer_robinson [Clickable '/team/marketing/jennifer_robinson']\n",
  },
  {
    name: '/team/sales',
    content:
      "Sales Team:\n- /team/sales/shannon_smith [Clickable '/team/sales/shannon_smith']\n- /team/sales/katie_gonzalez [Clickable '/team/sales/katie_gonzalez']\n- /team/sales/theresa_miller [Clickable '/team/sales/theresa_miller']\n- /team/sales/joseph_martinez [Clickable '/team/sales/joseph_martinez']\n",
  },
  {
    name: '/team/customer-support',
    content:
      "Customer Support Team:\n- /team/customer_support/david_caldwell [Clickable '/team/customer_support/david_caldwell']\n- /team/customer_support/scott_brown [Clickable '/team/customer_support/scott_brown']\n- /team/customer_support/thomas_ramos [Clickable '/team/customer_support/thomas_ramos']\n- /team/customer_support/james_house [Clickable '/team/customer_support/james_house']\n- /team/customer_support/jordan_york [Clickable '/team/customer_support/jordan_york']\n- /team/customer_support/mike_allen [Clickable '/team/customer_support/mike_allen']\n",
  },
  {
    name: '/team',
    content:
      "Our Teams:\n- Engineering Team [Clickable '/team/engineering']\n- Marketing Team [Clickable '/team/marketing']\n- Sales Team [Clickable '/team/sales']\n- Customer Support Team [Clickable '/team/customer_support']\n",
  },
  {
    name: '/products/wand/mystical_wand',
    content: 'Item: Mystical Wand\nDescription: High-quality magical item.\nPrice: $103.84',
  },
  {
    name: '/products/wand/ancient_wand',
    content: 'Item: Ancient Wand\nDescription: High-quality magical item.\nPrice: $171.06',
  },
  {
    name: '/products/wand/legendary_wand',
    content: 'Item: Legendary Wand\nDescription: High-quality magical item.\nPrice: $68.71',
  },
  {
    name: '/products/wand/rare_wand',
    content: 'Item: Rare Wand\nDescription: High-quality magical item.\nPrice: $142.77',
  },
  {
    name: '/products/wand/enchanted_wand',
    content:
      'Item: Enchanted Wand\nDescription: High-quality magical item.\nPrice: $118.32 (24% off!) -> Now at Price: $118.32',
  },
  {
    name: '/products/wand/magical_wand',
    content: 'Item: Magical Wand\nDescription: High-quality magical item.\nPrice: $91.69',
  },
  {
    name: '/products/potion/enchanted_potion',
    content: 'Item: Enchanted Potion\nDescription: High-quality magical item.\nPrice: $105.52',
  },
  {
    name: '/products/potion/ancient_potion',
    content: 'Item: Ancient Potion\nDescription: High-quality magical item.\nPrice: $155.26',
  },
  {
    name: '/products/potion/mystical_potion',
    content: 'Item: Mystical Potion\nDescription: High-quality magical item.\nPrice: $141.36',
  },
  {
    name: '/products/potion/rare_potion',
    content: 'Item: Rare Potion\nDescription: High-quality magical item.\nPrice: $86.71',
  },
  {
    name: '/products/potion/legendary_potion',
    content: 'Item: Legendary Potion\nDescription: High-quality magical item.\nPrice: $82.93',
  },
  {
    name: '/products/spellbook/enchanted_spellbook',
    content: 'Item: Enchanted Spellbook\nDescription: High-quality magical item.\nPrice: $173.26',
  },
  {
    name: '/products/spellbook/magical_spellbook',
    content: 'Item: Magical Spellbook\nDescription: High-quality magical item.\nPrice: $90.15',
  },
  {
    name: '/products/spellbook/legendary_spellbook',
    content: 'Item: Legendary Spellbook\nDescription: High-quality magical item.\nPrice: $181.45',
  },
  {
    name: '/products/crystal_ball/magical_crystal_ball',
    content: 'Item: Magical Crystal Ball\nDescription: High-quality magical item.\nPrice: $182.69',
  },
  {
    name: '/products/crystal_ball/enchanted_crystal_ball',
    content: 'Item: Enchanted Crystal Ball\nDescription: High-quality magical item.\nPrice: $89.72',
  },
  {
    name: '/products/crystal_ball/legendary_crystal_ball',
    content: 'Item: Legendary Crystal Ball\nDescription: High-quality magical item.\nPrice: $130.84',
  },
  {
    name: '/products/crystal_ball/ancient_crystal_ball',
    content: 'Item: Ancient Crystal Ball\nDescription: High-quality magical item.\nPrice: $82.89',
  },
  {
    name: '/products/crystal_ball/mystical_crystal_ball',
    content: 'Item: Mystical Crystal Ball\nDescription: High-quality magical item.\nPrice: $163.36',
  },
  {
    name: '/products/crystal_ball/rare_crystal_ball',
    content: 'Item: Rare Crystal Ball\nDescription: High-quality magical item.\nPrice: $73.99',
  },
  {
    name: '/products/wand',
    content:
      "Wand:\n- /products/wand/mystical_wand [Clickable '/products/wand/mystical_wand']\n- /products/wand/ancient_wand [Clickable '/products/wand/ancient_wand']\n- /products/wand/legendary_wand [Clickable '/products/wand/legendary_wand']\n- /products/wand/rare_wand [Clickable '/products/wand/rare_wand']\n- /products/wand/enchanted_wand [Clickable '/products/wand/enchanted_wand']\n- /products/wand/magical_wand [Clickable '/products/wand/magical_wand']\n",
  },
  {
    name: '/products/potion',
    content:
      "Potion:\n- /products/potion/enchanted_potion [Clickable '/products/potion/enchanted_potion']\n- /products/potion/ancient_potion [Clickable '/products/potion/ancient_potion']\n- /products/potion/mystical_potion [Clickable '/products/potion/mystical_potion']\n- /products/potion/rare_potion [Clickable '/products/potion/rare_potion']\n- /products/potion/legendary_potion [Clickable '/products/potion/legendary_potion']\n",
  },
  {
    name: '/products/spellbook',
    content:
      "Spellbook:\n- /products/spellbook/enchanted_spellbook [Clickable '/products/spellbook/enchanted_spellbook']\n- /products/spellbook/magical_spellbook [Clickable '/products/spellbook/magical_spellbook']\n- /products/spellbook/legendary_spellbook [Clickable '/products/spellbook/legendary_spellbook']\n",
  },
  {
    name: '/products/crystal_ball',
    content:
      "Crystal Ball:\n- /products/crystal_ball/magical_crystal_ball [Clickable '/products/crystal_ball/magical_crystal_ball']\n- /products/crystal_ball/enchanted_crystal_ball [Clickable '/products/crystal_ball/enchanted_crystal_ball']\n- /products/crystal_ball/legendary_crystal_ball [Clickable '/products/crystal_ball/legendary_crystal_ball']\n- /products/crystal_ball/ancient_crystal_ball [Clickable '/products/crystal_ball/ancient_crystal_ball']\n- /products/crystal_ball/mystical_crystal_ball [Clickable '/products/crystal_ball/mystical_crystal_ball']\n- /products/crystal_ball/rare_crystal_ball [Clickable '/products/crystal_ball/rare_crystal_ball']\n",
  },
  {
    name: '/products',
    content:
      "Our Products:\n- Wand [Clickable '/products/wand']\n- Potion [Clickable '/products/potion']\n- Spellbook [Clickable '/products/spellbook']\n- Crystal Ball [Clickable '/products/crystal_ball']\n",
  },
];
