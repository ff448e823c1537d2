// The image's HEALTHCHECK, for whichever server the container runs: healthy when the stateful mock
// answers its health route on $PORT, or (the `prism` mode, which has no health route) when the
// Prism mock accepts connections on $PRISM_PORT. Set the ports through PORT/PRISM_PORT, not
// --port, for the check to follow them. Exit 0 healthy, 1 not; each probe gives up after 2 s.
import { connect } from 'node:net';

const port = (name, fallback) => Number(process.env[name] || fallback);

const mockHealthy = () =>
  fetch(`http://127.0.0.1:${port('PORT', 4010)}/__mock/health`, { signal: AbortSignal.timeout(2000) }).then(
    (response) => response.ok,
    () => false,
  );

const prismListening = () =>
  new Promise((resolve) => {
    const socket = connect(port('PRISM_PORT', 4011), '127.0.0.1');
    socket.setTimeout(2000, () => socket.destroy(new Error('timeout')));
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

process.exit((await mockHealthy()) || (await prismListening()) ? 0 : 1);
