extension Remedy {
    /// The remedy as the command line says it, to follow a failure's message after "; ".
    var commandLine: String {
        switch self {
        case .logIn(let username?): "log in again with `snapshare login \(PrintableText.clean(username))`"
        case .logIn(nil): "run `snapshare login USER` or `snapshare register USER`"
        case .createVacation(let name):
            "create it with `snapshare vacation new \"\(PrintableText.clean(name))\"` (see `snapshare vacation list`)"
        case .listVacations: "see `snapshare vacation list`"
        case .showItinerary(let vacation): "see `snapshare itinerary\(VacationPresenter.option(vacation))`"
        case .showTags(let vacation): "see `snapshare tags\(VacationPresenter.option(vacation))`"
        }
    }
}
