/** The six services and the ports `npm start` gives them (tests add an offset). */
export const SERVICES = [
  ['gateway-auth', 4101],
  ['catalog', 4102],
  ['ordering-pricing', 4103],
  ['delivery-assignment', 4104],
  ['provider-delivery', 4105],
  ['webhook-sender', 4106],
] as const;
