-- The name an organization's texts to customers begin with (Settings → SMS,
-- README "Outgoing SMS"). Every text Kidogo writes to a customer (the payment
-- reply, reminders, balance and code replies, STOP and START, free days, the
-- USSD menu's code) begins with "Kidogo:"; with a name set, the text is stored
-- and sent beginning with it instead ("Jua Solar: Hi Grace, ..."). One trigger
-- does it for every way a text is queued, and only for the texts that begin
-- with the prefix (its WHEN clause): texts staff write, bulk SMS among them,
-- are not touched, and the organization is looked up only for the others.
ALTER TABLE organizations ADD COLUMN text_name varchar(11);

CREATE FUNCTION kidogo_text_name() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  name varchar(11);
BEGIN
  SELECT o.text_name INTO name FROM organizations o WHERE o.organization_id = NEW.organization_id;
  IF name IS NOT NULL THEN
    NEW.forwarded_message := name || substr(NEW.forwarded_message, 7);
  END IF;
  RETURN NEW;
END $$;

-- An UPDATE too: a payment's reply and the answer to BAL, CODE or STOP are written on the row of the text that asked.
CREATE TRIGGER messages_text_name BEFORE INSERT OR UPDATE OF forwarded_message ON messages
  FOR EACH ROW WHEN (NEW.forwarded_message LIKE 'Kidogo:%')
  EXECUTE FUNCTION kidogo_text_name();
