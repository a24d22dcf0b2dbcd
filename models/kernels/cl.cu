// cl.cu — Ren's CL (the RopaDemo cloth kernels of Brownsword's "Cloth in OpenCL"): a cloth of
// particles joined by distance links, simulated by position-based dynamics.
//   cl_integrate: Verlet step of every free particle (inverse mass > 0):
//                 next = p + damping (p - previous) + gravity dt^2; previous = p; p = next.
//   cl_solve:     one batch of links, one thread per link; the links of a batch share no particle
//                 (the host colours them), so a batch needs no locks. Each link pulls its two
//                 particles towards its rest length in proportion to their inverse masses:
//                 p1 += w1 c d, p2 -= w2 c d, d = p2 - p1, c = stiffness (|d| - rest) / (|d| (w1 + w2)).
// The host launches every batch in turn, several solver iterations per frame, so the particles a
// CTA moves are read by other CTAs in the next batch.

extern "C" __global__ void cl_integrate(float *x, float *y, float *z, float *px, float *py, float *pz,
                                        const float *inverse_mass, unsigned n, float damping, float gravity_dt2)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n || inverse_mass[i] == 0.0f)
        return;
    float cx = x[i], cy = y[i], cz = z[i];
    x[i] = cx + damping * (cx - px[i]);
    y[i] = cy + damping * (cy - py[i]) + gravity_dt2;
    z[i] = cz + damping * (cz - pz[i]);
    px[i] = cx;
    py[i] = cy;
    pz[i] = cz;
}

extern "C" __global__ void cl_solve(const unsigned *first, const unsigned *second, const float *rest, unsigned links,
                                    float *x, float *y, float *z, const float *inverse_mass, float stiffness)
{
    unsigned l = blockIdx.x * blockDim.x + threadIdx.x;
    if (l >= links)
        return;
    unsigned a = first[l], b = second[l];
    float wa = inverse_mass[a], wb = inverse_mass[b];
    if (wa + wb == 0.0f)
        return;
    float dx = x[b] - x[a], dy = y[b] - y[a], dz = z[b] - z[a];
    float length = sqrtf(dx * dx + dy * dy + dz * dz);
    float c = stiffness * (length - rest[l]) / (length * (wa + wb));
    x[a] += wa * c * dx;
    y[a] += wa * c * dy;
    z[a] += wa * c * dz;
    x[b] -= wb * c * dx;
    y[b] -= wb * c * dy;
    z[b] -= wb * c * dz;
}
