// A deterministic product catalogue for the benchmark, inserted only when the seed left the catalogue
// empty (a seed without a catalogue seeder): a publisher's shop of a few root categories with
// children, products filed under one or two categories, and two to four items per product.
import type { Db } from 'mongodb';
import type { ProductCategoryDoc, ProductDoc, ProductItemDoc } from '../src/store/catalogue/catalogue.docs.js';

interface CatalogueSize {
  roots: number;
  childrenPerRoot: number;
  products: number;
}

const CATALOGUE_SIZE: CatalogueSize = { roots: 3, childrenPerRoot: 4, products: 24 };

const ROOT_NAMES = ['Print', 'Digital', 'Books', 'Events', 'Merchandise'];
const CHILD_NAMES = ['Weekly', 'Monthly', 'Specials', 'Archive', 'Gifts', 'Bundles'];

/** A small LCG: the same catalogue on every run. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export interface Catalogue {
  categories: ProductCategoryDoc[];
  products: ProductDoc[];
  items: ProductItemDoc[];
}

function makeCatalogue(size: CatalogueSize = CATALOGUE_SIZE): Catalogue {
  const random = rng(20261121);
  const categories: ProductCategoryDoc[] = [];
  const category = (
    id: string,
    name: string,
    parent: ProductCategoryDoc | null,
    position: number,
  ): ProductCategoryDoc => ({
    _id: id,
    name,
    description: `${name}: everything we publish in this range.`,
    parentCategoryId: parent?._id ?? null,
    ancestorIds: parent ? [...parent.ancestorIds, parent._id] : [],
    sortPath: [parent?.sortPath, String(position).padStart(4, '0')].filter(Boolean).join('.'),
    url: `https://shop.example-news.com/c/${id}`,
    available: true,
    featured: position === 1,
    imageUrl: `https://cdn.example-news.com/shop/${id}.jpg`,
    coverPhotoUrl: `https://cdn.example-news.com/shop/${id}-cover.jpg`,
    logoUrl: null,
    slug: id,
    settings: [
      { name: 'Colour', key: 'colour', type: 'color' },
      { name: 'Format', key: 'format', type: 'text' },
    ],
    translations: { de: { name: `${name} (de)`, description: `${name}: alles aus diesem Bereich.` } },
  });
  for (let r = 0; r < size.roots; r++) {
    const root = category(`pc-${r + 1}`, ROOT_NAMES[r % ROOT_NAMES.length]!, null, r + 1);
    categories.push(root);
    for (let c = 0; c < size.childrenPerRoot; c++) {
      categories.push(
        category(`pc-${r + 1}-${c + 1}`, `${root.name} ${CHILD_NAMES[c % CHILD_NAMES.length]}`, root, c + 1),
      );
    }
  }
  const leaves = categories.filter((c) => c.parentCategoryId !== null);

  const products: ProductDoc[] = [];
  const items: ProductItemDoc[] = [];
  for (let p = 0; p < size.products; p++) {
    const id = `prod-${p + 1}`;
    const leaf = leaves[p % leaves.length]!;
    const second = random() < 0.3 ? leaves[Math.floor(random() * leaves.length)]! : null;
    const categoryIds = second && second._id !== leaf._id ? [leaf._id, second._id] : [leaf._id];
    products.push({
      _id: id,
      categoryIds,
      available: random() > 0.1,
      order: Math.floor(p / leaves.length) + 1,
      name: `${leaf.name} product ${p + 1}`,
      subtitle: `Subtitle of product ${p + 1}`,
      teaser: `Teaser of product ${p + 1}`,
      description: `Description of product ${p + 1}.`,
      text: `<p>Long text of product ${p + 1}.</p>`,
      brand: {
        id: 'brand-1',
        name: 'Example News',
        logoUrl: 'https://cdn.example-news.com/brand.png',
        url: 'https://example-news.com',
      },
      url: `https://shop.example-news.com/p/${id}`,
      learnMoreLink: null,
      settings: {
        template: 'default',
        mainPhotoUrl: `https://cdn.example-news.com/shop/${id}.jpg`,
        secondaryPhotoUrl: null,
        thumbnailUrl: `https://cdn.example-news.com/shop/${id}-t.jpg`,
        sku: `SKU-${id}`,
        allowCustomPrice: false,
      },
      translatedTexts: { de: { description: `Beschreibung von Produkt ${p + 1}.`, label1: 'Neu' } },
    });
    const count = 2 + Math.floor(random() * 3);
    for (let i = 0; i < count; i++) {
      const itemId = `item-${p + 1}-${i + 1}`;
      const price = 199 + Math.floor(random() * 5000);
      const recurrent = i === count - 1 && random() < 0.5;
      items.push({
        _id: itemId,
        productId: id,
        name: `Item ${i + 1} of product ${p + 1}`,
        subtitle: recurrent ? 'Subscription' : 'Single purchase',
        description: `Item ${i + 1} of product ${p + 1}.`,
        price,
        currency: 'EUR',
        available: true,
        order: i + 1,
        shippable: i === 0,
        weight: i === 0 ? 250 : null,
        installments: null,
        oncePerUser: recurrent,
        isUpgrade: false,
        upgradeType: null,
        upgradeFrom: [],
        upgradeExcludeItems: [],
        upgradePriceWeb: null,
        upgradePriceMobile: null,
        taxRate: i === 0 ? 700 : 1900,
        settings: {
          hasImage: true,
          additionalLabel1: null,
          additionalLabel2: null,
          additionalLabel3: null,
          diameter: null,
          length: i === 0 ? 297 : null,
          depth: null,
          width: i === 0 ? 210 : null,
          recurrent,
          recurrentPrice: recurrent ? price - 100 : null,
          recurrentStart: recurrent ? 30 : null,
          recurrentSchedule: recurrent ? 'monthly' : null,
        },
        sku: `SKU-${itemId}`,
        prices: { web: price, mobile: price + 50, compareAt: null },
        stockEnabled: i === 0,
        stockAvailable: i === 0 ? 100 + Math.floor(random() * 900) : null,
        packageQuantity: 1,
        relatedItems: { itemIds: i === 0 && count > 1 ? [`item-${p + 1}-2`] : [] },
        images: [
          { url: `https://cdn.example-news.com/shop/${itemId}.jpg`, width: 800, height: 600, alt: `Item ${itemId}` },
        ],
        files: [],
        translations: { de: { name: `Artikel ${i + 1} von Produkt ${p + 1}` } },
        actionDataOnPurchase: recurrent ? [{ function: 'grantEntitlement', param: 'P1M', group: 'subscription' }] : [],
        actionDataOnRenewalPurchase: recurrent
          ? [{ function: 'extendEntitlement', param: 'P1M', group: 'subscription' }]
          : [],
      });
    }
  }
  return { categories, products, items };
}

/** Inserts the catalogue (into an empty catalogue); returns the counts. */
export async function insertCatalogue(db: Db, catalogue: Catalogue = makeCatalogue()): Promise<Record<string, number>> {
  await db.collection<ProductCategoryDoc>('productCategories').insertMany(catalogue.categories);
  await db.collection<ProductDoc>('products').insertMany(catalogue.products);
  await db.collection<ProductItemDoc>('productItems').insertMany(catalogue.items);
  return {
    productCategories: catalogue.categories.length,
    products: catalogue.products.length,
    productItems: catalogue.items.length,
  };
}
