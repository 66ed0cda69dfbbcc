/// The application-facing API: skeleton drawables, controllers, views.
public enum BoneworkFacade {}
