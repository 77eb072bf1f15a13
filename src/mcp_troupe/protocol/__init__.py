"""Pure protocol code: no threads, no sockets, no clocks. Everything here is unit-testable on bytes."""
