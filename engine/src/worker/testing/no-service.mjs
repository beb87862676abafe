// A module hostOnEngineThread cannot run: it exports no serve(port, data).
export const notServe = true;
