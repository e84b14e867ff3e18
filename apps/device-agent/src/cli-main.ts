import { main } from './cli';

/** The agent's command line compiled for production (`npm run build`): dist/kisht-agent.js. */
process.exitCode = await main(process.argv.slice(2));
