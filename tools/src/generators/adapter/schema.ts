export interface AdapterGeneratorSchema {
  slug: string;
  name?: string;
  category?: 'pos' | 'ecommerce' | 'erp';
}
