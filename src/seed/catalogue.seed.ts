// The catalogue seeder: a three-level category tree with breadcrumbs and translations, products with
// several items (some recurrent subscriptions granting the `subscription` entitlement), coupons of every
// kind, and carts with coupons for the demo customers (when the customers seeder shared their ids).
// Same seed, same data: everything comes from the run's faker and a fixed reference date.
import { Faker, base, de, en, fr } from '@faker-js/faker';
import { priceMatrixFor, pricingInputFor } from '../operations/cart/cart-pricing.js';
import type {
  CartDoc,
  CategorySettingType,
  CouponDoc,
  ProductCategoryDoc,
  ProductDoc,
  ProductItemDoc,
  RecurrentSchedule,
} from '../store/catalogue/catalogue.docs.js';
import { insertInBatches, type ScaleName, type Seeder, type SeedRun } from './seeder.js';

/** Roots x children x grandchildren, products per leaf, carts (beyond the demo customer's). */
const SIZES: Record<
  ScaleName,
  { roots: number; children: number; leaves: number; productsPerLeaf: number; carts: number }
> = {
  tiny: { roots: 2, children: 2, leaves: 2, productsPerLeaf: 2, carts: 5 },
  demo: { roots: 4, children: 3, leaves: 3, productsPerLeaf: 4, carts: 50 },
  medium: { roots: 6, children: 5, leaves: 4, productsPerLeaf: 20, carts: 2_000 },
  large: { roots: 8, children: 6, leaves: 5, productsPerLeaf: 60, carts: 20_000 },
};

const DAY = 86_400_000;
const CURRENCY = 'EUR';
const ROOTS = [
  { name: 'Magazines', de: 'Zeitschriften', fr: 'Magazines' },
  { name: 'Newspapers', de: 'Zeitungen', fr: 'Journaux' },
  { name: 'Digital', de: 'Digital', fr: 'Numérique' },
  { name: 'Books', de: 'Bücher', fr: 'Livres' },
  { name: 'Gifts', de: 'Geschenke', fr: 'Cadeaux' },
  { name: 'Events', de: 'Veranstaltungen', fr: 'Événements' },
  { name: 'Archive', de: 'Archiv', fr: 'Archives' },
  { name: 'Merchandise', de: 'Fanartikel', fr: 'Produits dérivés' },
];
const SETTING_TYPES: CategorySettingType[] = ['color', 'text', 'number', 'boolean', 'url'];

/** A faker writing in another language, seeded from the run so translations are reproducible too. */
function localFaker(run: SeedRun, locale: typeof de, salt: number): Faker {
  // English before base: not every locale has every definition (fr lacks commerce.department).
  const f = new Faker({ locale: [locale, en, base] });
  f.seed(run.seed ^ salt);
  return f;
}

const slugify = (s: string) =>
  s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
const pad = (n: number, width = 4) => String(n).padStart(width, '0');

function categoryTree(run: SeedRun): ProductCategoryDoc[] {
  const { faker } = run;
  const fDe = localFaker(run, de, 0xde);
  const fFr = localFaker(run, fr, 0xf2);
  const size = SIZES[run.scale];
  const out: ProductCategoryDoc[] = [];
  const make = (
    parent: ProductCategoryDoc | null,
    position: number,
    names: { name: string; de: string; fr: string },
  ): ProductCategoryDoc => {
    const id = `pcat-${parent ? `${parent._id.slice(5)}-` : ''}${pad(position + 1, 2)}`;
    const slug = `${parent ? `${parent.slug}-` : ''}${slugify(names.name)}`.slice(0, 60);
    const doc: ProductCategoryDoc = {
      _id: id,
      name: names.name,
      description: faker.commerce.productDescription(),
      parentCategoryId: parent?._id ?? null,
      ancestorIds: parent ? [...parent.ancestorIds, parent._id] : [],
      sortPath: [parent?.sortPath, pad(position + 1)].filter(Boolean).join('.'),
      url: `https://shop.example.com/${slug}`,
      // One child per root is retired, to give `available=false` something to find.
      available: !(parent && !parent.parentCategoryId && position === size.children - 1 && size.children > 2),
      featured: faker.number.int({ min: 0, max: 3 }) === 0,
      imageUrl: `https://cdn.example.com/categories/${id}.jpg`,
      coverPhotoUrl: `https://cdn.example.com/categories/${id}-cover.jpg`,
      logoUrl: parent ? null : `https://cdn.example.com/categories/${id}-logo.svg`,
      slug,
      settings: faker.helpers
        .arrayElements(SETTING_TYPES, { min: 1, max: 3 })
        .map((type) => ({ name: `${type[0]!.toUpperCase()}${type.slice(1)}`, key: type, type })),
      // French is missing on some categories so clients see the fallback to English.
      translations: {
        de: { name: names.de, description: fDe.lorem.sentence() },
        ...(parent && position % 2 === 1 ? {} : { fr: { name: names.fr, description: fFr.lorem.sentence() } }),
      },
    };
    out.push(doc);
    return doc;
  };
  ROOTS.slice(0, size.roots).forEach((names, r) => {
    const root = make(null, r, names);
    for (let c = 0; c < size.children; c++) {
      const child = make(root, c, {
        name: `${names.name}: ${faker.commerce.department()}`,
        de: `${names.de}: ${fDe.commerce.department()}`,
        fr: `${names.fr} : ${fFr.commerce.department()}`,
      });
      for (let l = 0; l < size.leaves; l++) {
        make(child, l, {
          name: faker.commerce.productAdjective() + ' ' + faker.commerce.department().toLowerCase(),
          de: fDe.commerce.department(),
          fr: fFr.commerce.department(),
        });
      }
    }
  });
  return out;
}

type ItemKind = 'print' | 'monthly' | 'yearly' | 'upgrade' | 'digital';

function makeItem(
  run: SeedRun,
  product: ProductDoc,
  index: number,
  kind: ItemKind,
  siblings: string[],
): ProductItemDoc {
  const { faker } = run;
  const id = `${product._id.replace('prod-', 'item-')}-${index + 1}`;
  const recurrent = kind === 'monthly' || kind === 'yearly';
  const price = {
    print: faker.number.int({ min: 3, max: 15 }) * 100 - 1,
    monthly: 999,
    yearly: 9900,
    upgrade: 1990,
    digital: faker.number.int({ min: 1, max: 9 }) * 100 + 99,
  }[kind];
  const schedule: RecurrentSchedule | null = kind === 'monthly' ? 'monthly' : kind === 'yearly' ? 'yearly' : null;
  const grant = (fn: string) => [{ function: fn, param: kind === 'monthly' ? 'P1M' : 'P1Y', group: 'subscription' }];
  return {
    _id: id,
    productId: product._id,
    name: {
      print: 'Print edition',
      monthly: 'Monthly subscription',
      yearly: 'Yearly subscription',
      upgrade: 'Upgrade to premium',
      digital: 'Digital edition',
    }[kind],
    subtitle: faker.commerce.productAdjective(),
    description: faker.commerce.productDescription(),
    price,
    currency: CURRENCY,
    available: faker.number.int({ min: 0, max: 9 }) > 0,
    order: index + 1,
    shippable: kind === 'print',
    weight: kind === 'print' ? faker.number.int({ min: 150, max: 900 }) : null,
    installments: kind === 'yearly' ? { count: 12, intervalMonths: 1 } : null,
    oncePerUser: recurrent || kind === 'upgrade',
    isUpgrade: kind === 'upgrade',
    upgradeType: kind === 'upgrade' ? 'premium' : null,
    upgradeFrom: kind === 'upgrade' ? siblings.filter((s) => s !== id) : [],
    upgradeExcludeItems: [],
    upgradePriceWeb: kind === 'upgrade' ? 990 : null,
    upgradePriceMobile: kind === 'upgrade' ? 1190 : null,
    taxRate: kind === 'print' ? 700 : 1900,
    settings: {
      hasImage: kind === 'print',
      additionalLabel1: recurrent ? 'Cancel anytime' : null,
      additionalLabel2: kind === 'yearly' ? 'Best value' : null,
      additionalLabel3: null,
      diameter: null,
      length: kind === 'print' ? 297 : null,
      depth: kind === 'print' ? 5 : null,
      width: kind === 'print' ? 210 : null,
      recurrent,
      recurrentPrice: recurrent ? price : null,
      recurrentStart: recurrent ? (kind === 'monthly' ? 30 : 365) : null,
      recurrentSchedule: schedule,
    },
    sku: `SKU-${id.slice(5).toUpperCase()}`,
    prices: { web: price, mobile: price + (kind === 'print' ? 0 : 100), compareAt: kind === 'yearly' ? 11988 : null },
    stockEnabled: kind === 'print',
    stockAvailable: kind === 'print' ? faker.number.int({ min: 0, max: 500 }) : null,
    packageQuantity: 1,
    relatedItems: { itemIds: siblings.filter((s) => s !== id).slice(0, 2) },
    images: [{ url: `https://cdn.example.com/items/${id}.jpg`, width: 800, height: 600, alt: product.name }],
    files:
      kind === 'print'
        ? [
            {
              url: `https://cdn.example.com/items/${id}-sample.pdf`,
              name: 'Reading sample',
              mimeType: 'application/pdf',
              size: faker.number.int({ min: 50_000, max: 900_000 }),
            },
          ]
        : [],
    translations:
      index % 2 === 0
        ? { de: { name: `${product.name} (DE)`, subtitle: 'Deutsche Ausgabe' }, fr: { name: `${product.name} (FR)` } }
        : { de: { name: `${product.name} – Abo` } },
    actionDataOnPurchase: recurrent ? grant('grantEntitlement') : [],
    actionDataOnRenewalPurchase: recurrent ? grant('extendEntitlement') : [],
  };
}

/** Products of every leaf; every other product is a subscription product (print, monthly, yearly, upgrade). */
function productsOf(run: SeedRun, leaves: ProductCategoryDoc[]): { products: ProductDoc[]; items: ProductItemDoc[] } {
  const { faker } = run;
  const fDe = localFaker(run, de, 0xde2);
  const products: ProductDoc[] = [];
  const items: ProductItemDoc[] = [];
  leaves.forEach((leaf, l) => {
    for (let p = 0; p < SIZES[run.scale].productsPerLeaf; p++) {
      const id = `prod-${pad(products.length + 1, 6)}`;
      const name = faker.commerce.productName();
      // Some products are also listed under their root category (a "featured" shelf).
      const categoryIds = p === 0 ? [leaf._id, leaf.ancestorIds[0]!] : [leaf._id];
      const product: ProductDoc = {
        _id: id,
        categoryIds,
        available: (l + p) % 7 !== 6,
        order: p + 1,
        name,
        subtitle: faker.commerce.productAdjective(),
        teaser: faker.lorem.sentence(),
        description: faker.commerce.productDescription(),
        text: `<p>${faker.lorem.paragraphs(2, '</p><p>')}</p>`,
        brand: {
          id: `brand-${(l % 5) + 1}`,
          name: faker.company.name(),
          logoUrl: `https://cdn.example.com/brands/${(l % 5) + 1}.svg`,
          url: faker.internet.url(),
        },
        url: `https://shop.example.com/p/${slugify(name)}-${id}`,
        learnMoreLink: `https://shop.example.com/p/${id}/more`,
        settings: {
          template: faker.helpers.arrayElement(['default', 'subscription', 'bundle']),
          mainPhotoUrl: `https://cdn.example.com/products/${id}.jpg`,
          secondaryPhotoUrl: null,
          thumbnailUrl: `https://cdn.example.com/products/${id}-thumb.jpg`,
          sku: `P-${id.slice(5)}`,
          allowCustomPrice: p % 11 === 10,
        },
        translatedTexts: {
          de: { description: fDe.commerce.productDescription(), label1: 'Neu' },
          ...(p % 2 ? { fr: { description: 'Description en français', label2: 'Nouveau' } } : {}),
        },
      };
      const kinds: ItemKind[] = p % 2 === 0 ? ['print', 'monthly', 'yearly', 'upgrade'] : ['print', 'digital'];
      const ids = kinds.map((_, i) => `${id.replace('prod-', 'item-')}-${i + 1}`);
      products.push(product);
      items.push(...kinds.map((kind, i) => makeItem(run, product, i, kind, ids)));
    }
  });
  return { products, items };
}

/** Validity windows are relative to the moment of seeding: the welcome coupons stay valid, SUMMER15 has expired. */
function coupons(items: ProductItemDoc[], now: number): CouponDoc[] {
  const at = (days: number) => new Date(now + days * DAY);
  const c = (code: string, extra: Partial<CouponDoc>): CouponDoc => ({
    _id: `coupon-${code.toLowerCase()}`,
    code,
    kind: 'percent',
    percentOff: null,
    amountOff: null,
    currency: null,
    minimumSubtotal: null,
    itemIds: [],
    validFrom: at(-30),
    validUntil: at(3 * 365),
    ...extra,
  });
  return [
    c('WELCOME10', { kind: 'percent', percentOff: 1000 }),
    c('FIVEOFF', { kind: 'fixed', amountOff: 500, currency: CURRENCY }),
    c('FREESHIP', { kind: 'free_shipping' }),
    c('SUBSCRIBE20', {
      kind: 'percent',
      percentOff: 2000,
      itemIds: items
        .filter((i) => i.settings.recurrent)
        .slice(0, 50)
        .map((i) => i._id),
    }),
    c('BIG50', { kind: 'fixed', amountOff: 5000, currency: CURRENCY, minimumSubtotal: 20_000 }),
    c('SUMMER15', { kind: 'percent', percentOff: 1500, validFrom: at(-200), validUntil: at(-100) }),
  ];
}

/** Reads what the customers seeder shared; null when it did not run. */
function sharedCustomers(run: SeedRun): { ids: string[]; demoCustomerId?: string } | null {
  const value = run.shared.get('customers') as { ids?: unknown; demoCustomerId?: unknown } | undefined;
  if (!value || !Array.isArray(value.ids) || value.ids.length === 0) return null;
  return {
    ids: value.ids as string[],
    demoCustomerId: typeof value.demoCustomerId === 'string' ? value.demoCustomerId : undefined,
  };
}

function makeCart(
  run: SeedRun,
  customerId: string,
  index: number,
  pool: ProductItemDoc[],
  allCoupons: CouponDoc[],
): CartDoc {
  const { faker } = run;
  // Drawn by index (not by shuffling the pool: carts x items would be quadratic at the large scale).
  const picked = [
    ...new Set(
      Array.from({ length: faker.number.int({ min: 1, max: 4 }) }, () => pool[faker.number.int(pool.length - 1)]!),
    ),
  ];
  // The demo customer's cart carries several coupons; others zero to three.
  const applied = index === 0 ? allCoupons.slice(0, 3) : faker.helpers.arrayElements(allCoupons, { min: 0, max: 3 });
  const content = {
    currency: CURRENCY,
    items: picked.map((i) => ({
      productItemId: i._id,
      quantity: i.shippable ? faker.number.int({ min: 1, max: 3 }) : 1,
    })),
    coupons: applied.map((c) => ({ couponId: c._id, code: c.code })),
  };
  const matrix = priceMatrixFor(
    pricingInputFor(
      content,
      new Map(picked.map((i) => [i._id, i])),
      new Map(allCoupons.map((c) => [c._id, c])),
      new Date(run.now),
    ),
  );
  const updatedAt = new Date(run.now - faker.number.int({ min: 0, max: 30 }) * DAY);
  return {
    _id: `cart-${pad(index + 1, 6)}`,
    customerId,
    ...content,
    version: 1,
    priceMatrix: matrix,
    createdAt: updatedAt,
    updatedAt,
  };
}

export const catalogueSeeder: Seeder = {
  name: 'catalogue',
  async run(run) {
    const categories = categoryTree(run);
    const leaves = categories.filter((c) => c.ancestorIds.length === 2);
    const { products, items } = productsOf(run, leaves);
    const couponDocs = coupons(items, run.now);
    const counts: Record<string, number> = {
      productCategories: await insertInBatches(run, 'productCategories', categories.length, (i) => categories[i]!),
      products: await insertInBatches(run, 'products', products.length, (i) => products[i]!),
      productItems: await insertInBatches(run, 'productItems', items.length, (i) => items[i]!),
      coupons: await insertInBatches(run, 'coupons', couponDocs.length, (i) => couponDocs[i]!),
    };

    const customers = sharedCustomers(run);
    if (!customers) {
      run.log.warn('no customers were shared by an earlier seeder: carts are not seeded');
      return { ...counts, carts: 0 };
    }
    const owners = [
      customers.demoCustomerId ?? customers.ids[0]!,
      ...customers.ids.filter((id) => id !== customers.demoCustomerId),
    ];
    const total = Math.min(owners.length, SIZES[run.scale].carts + 1);
    const pool = items.filter((i) => i.available);
    counts.carts = await insertInBatches<CartDoc>(run, 'carts', total, (i) =>
      makeCart(run, owners[i]!, i, pool, couponDocs),
    );
    return counts;
  },
};
