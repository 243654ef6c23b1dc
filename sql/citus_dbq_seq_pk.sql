-- dbq_seq_pk on Citus: every table of a queue on one worker, chosen by queue_name
SELECT create_distributed_table('dbq_seq_pk', 'queue_name');
SELECT create_distributed_table('dbq_seq_pk_dead', 'queue_name', colocate_with => 'dbq_seq_pk');
SELECT create_distributed_table('dbq_seq_pk_keys', 'queue_name', colocate_with => 'dbq_seq_pk');
SELECT create_distributed_table('dbq_seq_pk_limits', 'queue_name', colocate_with => 'dbq_seq_pk');
SELECT create_distributed_table('dbq_seq_pk_in_flight', 'queue_name', colocate_with => 'dbq_seq_pk');
SELECT create_reference_table('dbq_seq_pk_pauses');
