package rocelab.scenario;

/** The rocelab release, recorded in every run's manifest. */
public final class Version {
    public static final String CURRENT = "0.1.0";

    private Version() {}
}
