// Connections the kernel may hold for the app to accept. Node's default (511) overflows when a
// burst of a thousand clients connects while the app is busy (drill R1, issue #13), and the kernel
// resets the overflow: those clients get ECONNRESET instead of an answer. The kernel caps this at
// net.core.somaxconn.
export const LISTEN_BACKLOG = 4096;
