type Level = 'debug' | 'info' | 'warn' | 'error' | 'silent';
const order: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export type Logger = Record<Exclude<Level, 'silent'>, (msg: string, extra?: Record<string, unknown>) => void>;

/** A tiny structured logger: one line per event, JSON extras. */
export function createLogger(level: Level = 'info'): Logger {
  const min = order[level];
  const write = (lvl: Exclude<Level, 'silent'>) => (msg: string, extra?: Record<string, unknown>) => {
    if (order[lvl] < min) return;
    const line = `${new Date().toISOString()} ${lvl.toUpperCase()} ${msg}${extra ? ` ${JSON.stringify(extra)}` : ''}`;
    if (lvl === 'error' || lvl === 'warn') console.warn(line);
    else console.log(line);
  };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}
