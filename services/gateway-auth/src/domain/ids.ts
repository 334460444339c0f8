export { isUuid } from '@marketplace/http';
