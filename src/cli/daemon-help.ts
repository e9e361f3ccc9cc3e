// The usage text of spp-ctl (the controller's flags), with the defaults of this machine.
import { DEFAULTS } from '../controller/controller.ts'
import type { fdBudget } from '../controller/fd-budget.ts'
import { LOG_LEVELS } from '../log/logger.ts'

/** The subcommands of spp-ctl (src/spp-ctl.ts runs them); any other word is a mistake. */
export const SUBCOMMANDS = ['topology', 'fleet', 'journal', 'auth'] as const

/** `spp-ctl --help`: `budget` holds the defaults derived from the open-files limit `limit`. */
export function usage(budget: ReturnType<typeof fdBudget>, limit: number | undefined) {
  const limitText = limit === undefined ? 'no limit read' : `open-files limit ${limit}`
  return `Usage: spp-ctl [options]
       spp-ctl topology get|plan|apply|history|rollback|confirm|desired|drift|restore
                        [--url URL]                            (spp-ctl topology --help)
       spp-ctl topology trace [PORT]|check [--window D] [--json]
                        the paths packets take, where they are lost (exit 2 when they are)
       spp-ctl fleet ls|get|plan|apply|serve [--etcd URL]      (spp-ctl fleet --help)
       spp-ctl journal [--follow] [--process vf:2] [--url URL] (spp-ctl journal --help)
       spp-ctl auth add|ls|rm NAME [--auth-file FILE]          (spp-ctl auth --help)

Controller for SPP processes: listens for spp_primary and the secondaries
(spp_nfv, spp_vm, spp_vf, spp_mirror) and serves the REST API.

Options:
  -b, --bind-addr ADDR        address of all three listeners (default ${DEFAULTS.host})
  -p, --pri-port PORT         port spp_primary connects to (default ${DEFAULTS.primaryPort})
  -s, --sec-port PORT         port the secondaries connect to (default ${DEFAULTS.secondaryPort})
  -a, --api-port PORT         REST API port (default ${DEFAULTS.apiPort})
      --command-timeout MS    how long a process may take to answer one command,
                              and a new connection its handshake (default ${DEFAULTS.commandTimeoutMs})
      --max-reply-bytes N     a longer reply drops the connection (default ${DEFAULTS.maxReplyBytes})
      --max-unidentified N    connections allowed in their handshake at once
                              (default ${budget.maxUnidentified}, from the ${limitText})
      --nfv-status WORDS      nfv status as the spec says it (spec: Running/Idle) or as SPP's
                              controller passed it on (wire: running/idling) (default spec)
      --max-queue N           commands allowed to wait for one process; more get 503 (default ${DEFAULTS.maxQueue})
      --max-body-bytes N      larger REST request bodies get 413 (default ${DEFAULTS.maxBodyBytes})
      --http-timeout MS       how long a REST client may take to send a request, counted
                              from its connection (default ${DEFAULTS.httpRequestTimeoutMs})
      --max-api-connections N REST connections at once; past it the oldest without a request
                              goes (default ${budget.maxApiConnections}, from the ${limitText})
      --event-buffer N        events kept for /v1/events clients that reconnect (default ${DEFAULTS.eventBufferSize})
      --max-pending-events N  an event-stream client this far behind is dropped (default ${DEFAULTS.maxPendingEventsPerClient})
      --status-max-age MS     a process's status read this recently answers every GET of it
                              again (its own, /v1/topology): dashboards share one read per
                              process per MS; 0 reads for each request (default ${DEFAULTS.statusMaxAgeMs});
                              the rates pushed (/v1/events?rates=1) read every max(1 s, MS)
      --auth-file FILE        clients and their tokens' digests (spp-ctl auth add); without it
                              the REST API is open to anyone who reaches it; read again on SIGHUP
      --allow-read-anonymous  with --auth-file: GET needs no token (writes still do)
      --api-socket PATH       the REST API on a unix socket too (mode 0660), no token needed
      --api-socket-group G    the socket's group (a name or a number)
      --allow-peers CIDRS     who may connect to the process ports: networks, comma-separated,
                              or any (default loopback and the bind address's network)
      --state-dir DIR|none    where processes' configurations and the change journal are
                              remembered (default $STATE_DIRECTORY, else
                              $XDG_STATE_HOME/spp-ctl, else ~/.local/state/spp-ctl);
                              none remembers nothing
      --restore MODE          a process that comes back without its remembered configuration:
                              on (restore it), report (drift.detected), off (default on)
      --journal-keep DAYS     journal entries are kept this long (default 30)
      --etcd URL[,URL...]     join a fleet: this host's desired configuration lives in etcd,
                              its alive and observed keys are kept there (docs/fleet.md)
      --host-name NAME        this host's name in the fleet (default: the machine's hostname)
      --etcd-prefix P         where the fleet's keys are in etcd (default /spp-ctl/)
      --etcd-ca FILE          with https:// URLs: the CA of etcd's certificate (default the system's)
      --etcd-cert FILE        a client certificate for etcd, where it asks for one (its CN is the
      --etcd-key FILE         etcd user with etcd's --client-cert-auth and no password), and its key
      --etcd-user NAME        an etcd user (etcd's authentication), its password read from
      --etcd-password-file FILE
                              (never from the command line); these files are read again on SIGHUP
      --log-level LEVEL       ${LOG_LEVELS.join(', ')} (default info); on stderr
      --log-format FORMAT     json (one JSON object a line) or pretty (one readable line);
                              default pretty when stderr is a terminal, else json
  -h, --help                  show this text
      --version               show the version
`
}
