"""The network: ZeroMQ transport, zeroconf discovery and its probe, the door and its
knocks, whom a seat knows and lets in, and the network interface."""
