import { ConfigError, loadConfig } from './env.js';
import { listen, openDatabase, createDeps } from './server.js';

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.warn(err.message);
      process.exit(1);
    }
    throw err;
  }
  const dbHandle = await openDatabase(config);
  const deps = await createDeps(config, dbHandle);
  const server = await listen(deps);
  deps.logger.info(`Poshan is running at ${server.url} (database: ${dbHandle.kind})`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    deps.logger.info(`${signal} received, shutting down`);
    await server.close();
    await dbHandle.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err) => {
  console.warn(`Poshan failed to start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
