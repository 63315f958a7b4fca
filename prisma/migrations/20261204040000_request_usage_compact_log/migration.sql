-- The usage counters' request trigger on the compact log (20261204030000 dropped the old table and
-- its triggers; the rows it converted were counted already). Rows are grouped through the small
-- tables of the account and the route. The key is not a dimension of the request counters here:
-- a key's deletion removes its small-table entry before its rows, so a delete could not name it.
CREATE OR REPLACE FUNCTION darkroom_request_usage() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO request_usage_change
    SELECT a.account_id, t.region, darkroom_usage_hour(n.created_at), darkroom_usage_key(NULL), t.endpoint, (n.status_code / 100)::smallint,
           coalesce(request_log_error_code(n.error_code), ''), count(*)
      FROM changed_rows n
      JOIN request_log_account a ON a.account_no = n.account_no
      JOIN request_log_route t ON t.route_no = n.route_no
     WHERE t.region IS NOT NULL
     GROUP BY 1, 2, 3, 4, 5, 6, 7;
  ELSE
    INSERT INTO request_usage_change
    SELECT a.account_id, t.region, darkroom_usage_hour(n.created_at), darkroom_usage_key(NULL), t.endpoint, (n.status_code / 100)::smallint,
           coalesce(request_log_error_code(n.error_code), ''), -count(*)
      FROM gone_rows n
      JOIN request_log_account a ON a.account_no = n.account_no
      JOIN request_log_route t ON t.route_no = n.route_no
     WHERE t.region IS NOT NULL
     GROUP BY 1, 2, 3, 4, 5, 6, 7;
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER request_usage_inserted AFTER INSERT ON "request_log_row"
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION darkroom_request_usage();
CREATE TRIGGER request_usage_deleted AFTER DELETE ON "request_log_row"
  REFERENCING OLD TABLE AS gone_rows FOR EACH STATEMENT EXECUTE FUNCTION darkroom_request_usage();

-- The converted history counted again without its keys, so every request counter has the one key.
DELETE FROM request_usage;
DELETE FROM request_usage_change;
INSERT INTO request_usage_change
SELECT a.account_id, t.region, darkroom_usage_hour(n.created_at), darkroom_usage_key(NULL), t.endpoint, (n.status_code / 100)::smallint,
       coalesce(request_log_error_code(n.error_code), ''), count(*)
  FROM request_log_row n
  JOIN request_log_account a ON a.account_no = n.account_no
  JOIN request_log_route t ON t.route_no = n.route_no
 WHERE t.region IS NOT NULL
 GROUP BY 1, 2, 3, 4, 5, 6, 7;
SELECT darkroom_fold_usage();
