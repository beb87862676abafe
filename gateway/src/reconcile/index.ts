export { createReconcileRunStore, type ReconcileCounts, type ReconcileRun, type ReconcileRunStore } from './reconcile-run-store.js';
export { createReconciler, type Reconciler, type ReconcilerOptions } from './reconciler.js';
export { RECONCILE_OVERLAP_MS, reconcileWindow, runReconcile, type ReconcileDeps } from './run-reconcile.js';
