package rocelab.observe.flow;

import java.util.List;

/**
 * Something told of a flow, which names the flow by its place in the run's list of records and fetches the record
 * when asked for, instead of holding one: the run's list makes a record anew at each ask (109 bytes), and a 1,024-host
 * all-to-all's collision ports list 1.2 million flows and its victims are over 300,000, whose records held 166 MB
 * through the outputs.
 */
public abstract class ListedFlow {
    private final List<FlowRecord> flows;
    private final int index;
    private final int id;

    protected ListedFlow(List<FlowRecord> flows, int index) {
        this.flows = flows;
        this.index = index;
        this.id = flows.get(index).id();
    }

    /** The flow's record. */
    public final FlowRecord flow() {
        return flows.get(index);
    }

    /** The flow's id, without its record. */
    public final int id() {
        return id;
    }

    /** The run's records the flow is among. */
    public final List<FlowRecord> flows() {
        return flows;
    }
}
