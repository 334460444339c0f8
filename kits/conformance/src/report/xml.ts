/** Characters XML 1.0 cannot hold at all (controls other than tab, newline, return; lone surrogates). */
const NOT_XML =
  // eslint-disable-next-line no-control-regex -- these are the characters to find
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text or an attribute value, escaped for XML (and for HTML: the same five characters). */
export const escapeXml = (text: string): string =>
  text
    .replace(NOT_XML, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
