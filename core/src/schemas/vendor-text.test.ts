import { describe, expect, it } from 'vitest';
import { isKeyableId, isStorableText, vendorText } from './common.js';

describe('vendorText (vendor names, SKUs and codes made fit for an envelope)', () => {
  it('keeps ordinary text as it is, and cuts long text at `max` characters', () => {
    expect(vendorText('Flat White 12oz')).toBe('Flat White 12oz');
    expect(vendorText('x'.repeat(300))).toBe('x'.repeat(255));
    expect(vendorText('abcdef', 4)).toBe('abcd');
  });

  it('never cuts inside a surrogate pair: the whole emoji goes, not half of it', () => {
    const text = `${'y'.repeat(254)}😀tail`;
    expect(vendorText(text)).toBe('y'.repeat(254));
    expect(isStorableText(vendorText(text))).toBe(true);
    expect(vendorText(`${'y'.repeat(253)}😀tail`)).toBe(`${'y'.repeat(253)}😀`);
  });

  it('stores NUL and unpaired surrogates as U+FFFD, so the text passes the canonical schema', () => {
    expect(vendorText('Latte\u0000')).toBe('Latte\ufffd');
    expect(vendorText('a\ud800b')).toBe('a\ufffdb');
    expect(vendorText('\udc00')).toBe('\ufffd');
    for (const odd of ['\u0000', 'a\ud800', '\udfff\u0000']) expect(isStorableText(vendorText(odd))).toBe(true);
  });

  it('isKeyableId: an id that keys a row as sent (1 to max characters, storable); anything else is left out, never altered', () => {
    expect(isKeyableId('gid://shopify/ProductVariant/1')).toBe(true);
    expect(isKeyableId('x'.repeat(255))).toBe(true);
    for (const id of ['', 'x'.repeat(256), 'a\u0000', '\ud800']) expect(isKeyableId(id)).toBe(false);
    expect(isKeyableId('x'.repeat(201), 200)).toBe(false);
  });
});
