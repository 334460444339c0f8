export {
  OUTBOX,
  OUTBOX_SINCE,
  OUTBOX_VERSION,
  stage,
  withOutbox,
  updateWithOutbox,
  type StagedEvent,
  type OutboxFields,
} from './outbox';
export { OutboxRelay, type Publisher, type RelayOptions } from './relay';
