package rocelab.workload.graph;

import rocelab.engine.Rates;
import rocelab.fabric.topology.Topology;

/**
 * The scale-up links inside a server (NVLink through NVSwitch): a transfer between two GPUs of the same server
 * does not enter the RDMA fabric; it leaves the sending GPU at {@code rateBps} (one transfer after the other, so
 * concurrent sends share the GPU's NVLink bandwidth) and arrives {@code latencyPs} after its last byte left.
 */
public record LocalLinks(int[] serverOfHost, long rateBps, long latencyPs) {
    public LocalLinks {
        serverOfHost = serverOfHost.clone();
        if (rateBps <= 0 || latencyPs < 0) {
            throw new IllegalArgumentException("NVLink needs a positive rate and a non-negative latency");
        }
    }

    /** NVLink between the hosts a topology places in one server. */
    public static LocalLinks of(Topology topology, long rateBps, long latencyPs) {
        int[] servers = new int[topology.hostCount()];
        for (int h = 0; h < servers.length; h++) {
            servers[h] = topology.serverOf(h);
        }
        return new LocalLinks(servers, rateBps, latencyPs);
    }

    /** Whether a transfer from host a to host b stays inside one server. */
    public boolean local(int a, int b) {
        return a < serverOfHost.length && b < serverOfHost.length && serverOfHost[a] == serverOfHost[b];
    }

    /** Time the sending GPU's NVLink is busy with {@code bytes}. */
    public long serializationPs(long bytes) {
        return Rates.serializationPs(bytes, rateBps);
    }
}
