export { currencyDecimals, toMinorUnits, fromMinorUnits, validTaxRate, MAX_AMOUNT } from './money';
