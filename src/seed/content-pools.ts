// Pools of plausible strings drawn once from faker per run; bulk documents then vary by index and pick
// from the pools, which is what keeps a million articles to minutes instead of millions of faker calls.
import { Faker, de, en, fr, base } from '@faker-js/faker';
import type { Faker as FakerType } from '@faker-js/faker';
import { capitalise, hash32 } from './content-random.js';

export interface Pools {
  headlines: string[];
  sentences: string[];
  paragraphs: string[];
  words: string[];
  /** Words of other languages, for keyword translations: same index, same keyword. */
  wordsByLanguage: Record<string, string[]>;
  people: Array<{ first: string; last: string }>;
  companies: string[];
  cities: string[];
  countries: string[];
  /** faker's word lists, for headlines composed per article (./content-articles.ts). */
  titleWords: { lastNames: string[]; verbs: string[]; adjectives: string[]; nouns: string[]; prepositions: string[] };
}

function headline(faker: FakerType): string {
  switch (faker.number.int(3)) {
    case 0:
      return capitalise(faker.hacker.phrase().replace(/[.!]$/, ''));
    case 1:
      return `${faker.location.city()}: ${faker.company.catchPhrase().toLowerCase()}`;
    case 2:
      return `${faker.person.lastName()} ${faker.word.verb()}s ${faker.word.adjective()} ${faker.word.noun()}`;
    default:
      return capitalise(
        `${faker.word.adjective()} ${faker.word.noun()} ${faker.word.preposition()} ${faker.location.city()}`,
      );
  }
}

/** `faker` is the run's seeded faker; other locales get their own, seeded from the run seed. */
export function buildPools(faker: FakerType, seed: number, scale: { articles: number }): Pools {
  const big = scale.articles >= 50_000;
  // faker's uniqueArray retries quadratically once the noun list runs dry; a bounded Set loop does not.
  const distinct = new Set<string>();
  for (let tries = 0; tries < 12_000 && distinct.size < 1_200; tries++) distinct.add(faker.word.noun());
  const words = [...distinct];
  const translated = (locale: typeof de, lang: string) => {
    const other = new Faker({ locale: [locale, en, base] });
    other.seed(hash32(seed, 'content-pools', lang));
    return words.map(() => other.word.noun());
  };
  return {
    headlines: Array.from({ length: big ? 4000 : 1500 }, () => headline(faker)),
    sentences: Array.from({ length: 2000 }, () => faker.lorem.sentence({ min: 8, max: 18 })),
    paragraphs: Array.from({ length: 400 }, () => faker.lorem.paragraph({ min: 3, max: 5 })),
    words,
    wordsByLanguage: { de: translated(de, 'de'), fr: translated(fr, 'fr') },
    people: Array.from({ length: 1000 }, () => ({ first: faker.person.firstName(), last: faker.person.lastName() })),
    companies: Array.from({ length: 200 }, () => faker.company.name()),
    cities: Array.from({ length: 200 }, () => faker.location.city()),
    countries: Array.from({ length: 60 }, () => faker.location.countryCode()),
    // Read from faker's lists, not drawn: they take nothing from the run's random stream.
    titleWords: {
      lastNames: [...faker.definitions.person.last_name!.generic!],
      verbs: [...faker.definitions.word.verb],
      adjectives: [...faker.definitions.word.adjective],
      nouns: [...faker.definitions.word.noun],
      prepositions: faker.definitions.word.preposition.filter((p) => p.length > 2),
    },
  };
}
