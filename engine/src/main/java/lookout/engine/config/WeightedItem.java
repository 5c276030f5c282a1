package lookout.engine.config;

import lookout.engine.config.vscf.Position;

/**
 * One weighted item of a gdnsd weighted resource (seed 001): an address ({@code label => [ IPADDR,
 * WEIGHT ]}) or a CNAME ({@code label => [ CNAME, WEIGHT ]}).
 *
 * @param label  its key in the configuration
 * @param target the address in canonical text form, or the fully qualified CNAME as written
 * @param weight 1 to 1 048 575
 * @param pos    where its value starts, for messages
 */
public record WeightedItem(String label, String target, int weight, Position pos) {
}
