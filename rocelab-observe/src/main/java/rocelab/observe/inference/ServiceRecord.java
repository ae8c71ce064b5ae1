package rocelab.observe.inference;

import rocelab.observe.flow.CollectiveRecord;

/**
 * One inference service of the scenario, whether or not any request arrived: its name, its span (its first request's
 * arrival to its last request's end, or to the run's end when one did not end; -1 and -1 without requests) and
 * {@code beside}: the workload's other items with flows from or to the hosts of its requests' flows within that span,
 * the one there longest and for how long (the ideal is the service alone, so that sharing counts as network wait).
 */
public record ServiceRecord(String service, long startPs, long endPs, CollectiveRecord.Beside beside) {
    /** A service with nothing known beside it. */
    public ServiceRecord(String service, long startPs, long endPs) {
        this(service, startPs, endPs, CollectiveRecord.Beside.NONE);
    }

    public long spanPs() {
        return startPs < 0 ? 0 : endPs - startPs;
    }
}
