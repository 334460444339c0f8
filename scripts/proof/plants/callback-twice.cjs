// Planted defect (scripts/proof/plants/README.md): the 3rd provider callback the sender makes is
// sent a second time at once with one field of its body changed and a valid signature, as a retry
// that rebuilt its body from the delivery's state (and not from the event) would send it.
const { join } = require('node:path');

const root = join(__dirname, '..', '..', '..');
const { SafeHttpClient } = require(join(root, 'shared/http/dist/safe-http.js'));
const signing = require(join(root, 'services/webhook-sender/dist/domain/signing.js'));

const TWICE_NTH = 3;
/** The secret each callback body was signed with (the plant re-signs the changed copy). */
const secrets = new WeakMap();
const headers = signing.platformSigner.headers;
signing.platformSigner.headers = function (secret, eventId, unixSeconds, body) {
  secrets.set(body, secret);
  return headers.call(this, secret, eventId, unixSeconds, body);
};

let callbacks = 0;
const post = SafeHttpClient.prototype.post;
SafeHttpClient.prototype.post = async function (url, sent, body, contentType) {
  const result = await post.call(this, url, sent, body, contentType);
  const secret = secrets.get(body);
  if (secret === undefined || ++callbacks !== TWICE_NTH) return result;
  const changed = JSON.parse(body.toString('utf8'));
  changed.driverName = `${changed.driverName ?? 'Driver'} (again)`;
  const copy = Buffer.from(JSON.stringify(changed));
  await post.call(
    this,
    url,
    { ...sent, 'X-Platform-Signature': signing.platformSignature(secret, copy) },
    copy,
    contentType,
  );
  return result;
};
