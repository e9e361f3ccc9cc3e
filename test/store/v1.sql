-- A state database as version 1 of the schema wrote it (frozen: never edit; a test checks that
-- migration 1 still builds exactly this schema), with a remembered nfv, vf and primary.
CREATE TABLE process_config (
     section TEXT NOT NULL CHECK (section IN ('nfvs', 'vfs', 'mirrors', 'primary')),
     client_id INTEGER NOT NULL CHECK (section <> 'primary' OR client_id = 0),
     config TEXT NOT NULL CHECK (json_valid(config)),
     updated INTEGER NOT NULL, -- ms since the epoch
     PRIMARY KEY (section, client_id)
   ) WITHOUT ROWID;
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
INSERT INTO process_config VALUES
  ('nfvs', 1, '{"status":"Running","ports":["phy:0","ring:0"],"patches":[{"src":"phy:0","dst":"ring:0"}]}', 1767225600000),
  ('vfs', 2, '{"components":[{"core":2,"name":"fwd1","type":"forward","rx_port":[{"port":"ring:0"}],"tx_port":[]}]}', 1767225600000),
  ('primary', 0, '{"ports":["phy:0","phy:1"]}', 1767225600000);
INSERT INTO meta VALUES ('store.revision', '3'), ('etcd.applied-revision', '17');
PRAGMA user_version = 1;
