package transports

// ownerKnown: Linux says who owns each socket (/proc/net/tcp{,6}).
const ownerKnown = true
