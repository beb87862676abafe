export { sampleSale, type SampleSaleOptions } from './sample-sale.js';
export { sendSigned, type SendSignedOptions, type SendSignedResult } from './send-signed.js';
