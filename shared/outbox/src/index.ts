export { OUTBOX, OUTBOX_SINCE, stage, withOutbox, updateWithOutbox, type StagedEvent, type OutboxFields } from './outbox';
export { OutboxRelay, type Publisher, type RelayOptions } from './relay';
