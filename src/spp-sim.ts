// spp-sim: simulated SPP processes for a controller (its command line is src/cli/sim.ts).
import './cli/sim.ts'
