// GraphQL documents of the catalogue tests: every field of every catalogue type.
export const ITEM = `fragment Item on ProductItemFields {
  id name subtitle description productId productName price currency available order shippable weight
  installments { count intervalMonths } oncePerUser isUpgrade upgradeType upgradeFrom upgradeExcludeItems
  upgradePriceWeb upgradePriceMobile
  settings { hasImage additionalLabel1 additionalLabel2 additionalLabel3 diameter length depth width recurrent recurrentPrice recurrentStart recurrentSchedule }
  sku prices { web mobile compareAt } stockEnabled stockAvailable packageQuantity relatedItems { itemIds }
  images { url width height alt } files { url name mimeType size } productDetails { id }
  translations { language name subtitle }
  actionDataOnPurchase { function param group } actionDataOnRenewalPurchase { function param group }
}`;

export const PRODUCT = `fragment Product on Product {
  id name subtitle teaser description text brand { id name logoUrl url } url learnMoreLink
  settings { template mainPhotoUrl secondaryPhotoUrl thumbnailUrl sku allowCustomPrice }
  translatedTexts { language description label1 label2 label3 } available categoryIds
  productItems { ...Item }
}`;

const CATEGORY = `fragment Category on ProductCategory {
  id name description parentCategoryId url available featured imageUrl coverPhotoUrl logoUrl slug totalProductsCount
  settings { name key type } breadcrumbs { categoryId categoryName categorySlug } translations { language name description }
  products(first: 100) { totalCount edges { node { ...Product } } }
}`;

export const CATEGORIES = `query Categories($parentId: ID, $featured: Boolean, $available: Boolean! = true, $lang: String) {
  productCategories(parentId: $parentId, featured: $featured, available: $available, lang: $lang) { ...Category }
}
${CATEGORY}
${PRODUCT}
${ITEM}`;

export const PRICE_MATRIX = `priceMatrix { currency subtotal discount shipping tax total lines { itemId quantity unitPrice lineTotal } coupons { id couponId code amount reason } }`;
