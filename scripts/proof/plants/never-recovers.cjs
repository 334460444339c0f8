// Planted defect (scripts/proof/plants/README.md): the process answers every HTTP request 503, its
// /healthz and /readyz included, as a service stuck after a restart would. Only for the proof.
const http = require('node:http');

const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function (event, req, res) {
  if (event !== 'request') return emit.apply(this, arguments);
  req.resume();
  res.writeHead(503, { 'content-type': 'application/problem+json', 'retry-after': '1' });
  res.end(JSON.stringify({ status: 503, title: 'Service Unavailable', code: 'service.unavailable' }));
  return true;
};
