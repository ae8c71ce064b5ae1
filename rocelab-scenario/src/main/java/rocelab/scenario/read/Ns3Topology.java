package rocelab.scenario.read;

import rocelab.fabric.topology.CustomTopologySpec;

/**
 * A topology read from an ns-3 RDMA topology file: the custom topology it maps to, and which host each ns-3 node id
 * became, so that an ns-3 flow file, which names its endpoints by node id, reaches the same hosts.
 *
 * @param hostOfNode for each node id, its host index, or -1 for a switch
 * @param shown how the topology file is named in messages
 */
record Ns3Topology(CustomTopologySpec spec, int[] hostOfNode, String shown) {
    /** The node id of host {@code host} (the inverse of hostOfNode). */
    int nodeOfHost(int host) {
        for (int n = 0, h = 0; n < hostOfNode.length; n++) {
            if (hostOfNode[n] >= 0 && h++ == host) {
                return n;
            }
        }
        throw new IllegalArgumentException("no host " + host);
    }
}
