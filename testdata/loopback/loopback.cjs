// Preloaded (node --require) into the Node programs mcpdeck's tests start
// (supergateway, server-everything, the conformance suite's own servers):
// every TCP listener of the process binds 127.0.0.1, whatever address it
// asked for. supergateway 4.0.0 and server-everything listen with a port
// alone (express's app.listen(port)), which is every interface; a test
// must never listen beyond the machine. Unix sockets and listeners on a
// handle are left as they are.
//
// A listen with a host resolves it before binding, so address() would be
// null right after listen() returns, where a listen with a port alone
// binds at once (the conformance suite reads the port at once): while the
// patched listen runs, the lookup of 127.0.0.1 answers at once too.
"use strict";
const net = require("net");
const dns = require("dns");
const LOOPBACK = "127.0.0.1";
const listen = net.Server.prototype.listen;
const lookup = dns.lookup;
let listening = false;
dns.lookup = function (host, options, callback) {
  if (listening && host === LOOPBACK) {
    const cb = typeof options === "function" ? options : callback;
    const all = typeof options === "object" && options !== null && options.all;
    if (all) cb(null, [{ address: LOOPBACK, family: 4 }]);
    else cb(null, LOOPBACK, 4);
    return {};
  }
  return lookup.apply(this, arguments);
};
const isPort = (v) => typeof v === "number" || (typeof v === "string" && /^\d+$/.test(v));
net.Server.prototype.listen = function (...args) {
  const [first] = args;
  if (args.length === 0 || typeof first === "function") {
    args.unshift(0, LOOPBACK); // listen() or listen(callback): a random port
  } else if (isPort(first)) {
    if (typeof args[1] === "string") {
      args[1] = LOOPBACK; // listen(port, host, ...)
    } else {
      args.splice(1, 0, LOOPBACK); // listen(port[, backlog][, callback])
    }
  } else if (first && typeof first === "object" && first.path === undefined && first._handle === undefined && first.fd === undefined && (first.port !== undefined || first.host !== undefined)) {
    args[0] = { ...first, host: LOOPBACK }; // listen({port, host, ...})
  }
  listening = true;
  try {
    return listen.apply(this, args);
  } finally {
    listening = false;
  }
};
