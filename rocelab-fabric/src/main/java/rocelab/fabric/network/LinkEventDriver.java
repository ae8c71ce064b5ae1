package rocelab.fabric.network;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import rocelab.engine.EventHandler;
import rocelab.engine.Simulator;

/**
 * Applies link failures and recoveries at their times. Routing converges at once: every switch recomputes its
 * equal-cost next hops around the links that are down (the control plane is not modelled).
 */
public final class LinkEventDriver implements EventHandler {
    private final Network network;
    private final Simulator sim;
    private final int handlerId;
    private final List<LinkEvent> events;
    private int next;

    public LinkEventDriver(Network network, List<LinkEvent> events) {
        this.network = network;
        this.sim = network.simulator();
        this.events = new ArrayList<>(events);
        this.events.sort(Comparator.comparingLong(LinkEvent::atPs));
        this.handlerId = sim.register(this);
        network.linkEvents(this.events.size());
        if (!this.events.isEmpty()) {
            sim.schedule(this.events.get(0).atPs(), handlerId, 0, 0L);
        }
    }

    @Override
    public void onEvent(long nowPs, int kind, long arg) {
        while (next < events.size() && events.get(next).atPs() <= nowPs) {
            LinkEvent e = events.get(next++);
            network.setLinkState(e.edgeIndex(), e.up());
        }
        if (next < events.size()) {
            sim.schedule(events.get(next).atPs(), handlerId, 0, 0L);
        }
    }
}
