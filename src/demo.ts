// npm run demo: the controller with a simulated SPP (its command line is src/cli/demo.ts).
import './cli/demo.ts'
