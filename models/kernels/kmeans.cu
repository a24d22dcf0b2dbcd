// kmeans.cu — the assignment step of k-means: each thread finds the nearest centroid (squared
// Euclidean distance) of one point and records it. Points are point-major (point * features +
// f). The host reads the memberships, recomputes the centroids and writes them back before the
// next launch.

extern "C" __global__ void kmeans_assign(const float *points, const float *centroids,
                                         unsigned *membership, unsigned point_count,
                                         unsigned cluster_count, unsigned features)
{
    unsigned p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= point_count)
        return;
    unsigned best = 0;
    float best_distance = 3.4e38f;
    for (unsigned c = 0; c < cluster_count; c++) {
        float distance = 0.0f;
        for (unsigned f = 0; f < features; f++) {
            float d = points[p * features + f] - centroids[c * features + f];
            distance += d * d;
        }
        if (distance < best_distance) {
            best_distance = distance;
            best = c;
        }
    }
    membership[p] = best;
}
