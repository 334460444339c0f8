// Planted defect (scripts/proof/plants/README.md): the publisher reports the 10th `orders.created`
// it is handed as published without sending it, so the outbox clears it and it is never sent.
const { join } = require('node:path');

const root = join(__dirname, '..', '..', '..');
const { EventPublisher } = require(join(root, 'shared/events/dist/producer.js'));

const DROP_NTH = 10;
let seen = 0;
const publishStored = EventPublisher.prototype.publishStored;
EventPublisher.prototype.publishStored = function (events) {
  const kept = events.filter((event) => {
    if (event.topic !== 'orders' || !/created/.test(event.type)) return true;
    seen++;
    return seen !== DROP_NTH;
  });
  return publishStored.call(this, kept);
};
