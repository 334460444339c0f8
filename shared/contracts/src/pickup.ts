/** A branch's address as the catalog keeps it (catalog topic, Branch input). */
export interface BranchAddress {
  line1: string;
  line2: string | null;
  city: string;
  postalCode: string | null;
  countryCode: string;
}

/**
 * The one-line `address` of the Partner API's Branch pickup info, made from the catalog's branch
 * address: `line1, line2, postalCode city, countryCode`, empty parts left out; '' without an
 * address. Ordering (the order's branch) and delivery-assignment (the snapshot at assignment) both
 * write it, so a driver reads the same line either way.
 */
export function branchAddressLine(address: BranchAddress | null): string {
  if (!address) return '';
  return [
    address.line1,
    address.line2,
    [address.postalCode, address.city].filter(Boolean).join(' '),
    address.countryCode,
  ]
    .filter(Boolean)
    .join(', ');
}
